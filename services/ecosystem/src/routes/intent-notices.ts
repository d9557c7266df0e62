import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { ErrorCode, IntentNoticeBodySchema, IntentNoticeSchema } from '@tessera/contracts';
import { AppError, envelope, principalOf, routeSchema, type App, envelopeOf } from '@tessera/service-kit';
import { toNoticeJsonLd } from '../domain/notice-json-ld.js';
import { presentNotice } from '../presenters/intent-notices.js';
import { createIntentNotice, type CreateIntentNoticeDeps } from '../use-cases/create-intent-notice.js';
import { getIntentNotice, type GetIntentNoticeDeps } from '../use-cases/get-intent-notice.js';
import { updateIntentNotice, type UpdateIntentNoticeDeps } from '../use-cases/update-intent-notice.js';
import { PathId } from './schemas.js';

export type IntentNoticeRouteDeps = CreateIntentNoticeDeps & GetIntentNoticeDeps & UpdateIntentNoticeDeps;

const NoticeParams = Type.Object({ intentId: PathId });
const JSON_LD = 'application/ld+json';
const REPRESENTATIONS = ['application/json', JSON_LD];

/** The consent notice of an intent: created by the lead, read (JSON or JSON-LD) and versioned by lead and members. */
export function registerIntentNoticeRoutes(app: App, deps: IntentNoticeRouteDeps): void {
  app.post(
    '/v1/intent/:intentId/notice',
    {
      schema: routeSchema(
        {
          summary: "Create the intent's consent notice (version 1)",
          description:
            'Lead only. An ISO/IEC TS 27560 consent notice with DPV terms; one per intent (409 NOTICE_EXISTS).',
          tags: ['intent notices'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        { params: NoticeParams, body: IntentNoticeBodySchema, response: { 201: envelopeOf(IntentNoticeSchema) } },
      ),
    },
    async (request, reply) => {
      const notice = await createIntentNotice(deps, {
        principal: principalOf(request),
        intentId: request.params.intentId,
        body: request.body,
      });
      return reply.code(201).send(envelope(201, 'Notice created (version 1).', presentNotice(notice)));
    },
  );

  app.get(
    '/v1/intent/:intentId/notice',
    {
      schema: routeSchema(
        {
          summary: "Get a version of the intent's notice, as JSON or JSON-LD",
          description:
            'The latest version, or ?version=n. With Accept: application/ld+json the bare JSON-LD document (DPV terms) is answered.',
          tags: ['intent notices'],
          security: 'bearer',
          errors: [404, 406, 503],
        },
        {
          params: NoticeParams,
          querystring: Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) }),
          response: { 200: envelopeOf(IntentNoticeSchema) },
        },
      ),
    },
    async (request, reply) => {
      // Decide the representation before any work, so an unservable Accept is 406 whatever else holds.
      const type = new Negotiator(request).mediaType(REPRESENTATIONS);
      if (!type)
        throw new AppError(
          406,
          ErrorCode.NOT_ACCEPTABLE,
          `This resource is available as ${REPRESENTATIONS.join(' or ')}.`,
        );
      const notice = presentNotice(
        await getIntentNotice(deps, {
          principal: principalOf(request),
          intentId: request.params.intentId,
          version: request.query.version,
        }),
      );
      void reply.header('vary', 'Accept');
      // The JSON-LD document is not the enveloped 200 schema: it is serialised as is.
      if (type === JSON_LD)
        return reply
          .type(JSON_LD)
          .serializer(JSON.stringify)
          .send(toNoticeJsonLd(notice) as never);
      return envelope(200, `Notice version ${notice.version}.`, notice);
    },
  );

  app.put(
    '/v1/intent/:intentId/notice',
    {
      schema: routeSchema(
        {
          summary: "Issue a new version of the intent's notice",
          description: 'Lead or member. Every version is kept.',
          tags: ['intent notices'],
          security: 'bearer',
          errors: [404, 413, 415, 503],
        },
        { params: NoticeParams, body: IntentNoticeBodySchema, response: { 200: envelopeOf(IntentNoticeSchema) } },
      ),
    },
    async (request) => {
      const notice = await updateIntentNotice(deps, {
        principal: principalOf(request),
        intentId: request.params.intentId,
        body: request.body,
      });
      return envelope(200, `Notice updated (version ${notice.version}).`, presentNotice(notice));
    },
  );
}
