import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { ErrorCode, IntentNoticeBodySchema, IntentNoticeSchema } from '@tessera/contracts';
import { AppError, envelope, notFound, principalOf, type App } from '@tessera/service-kit';
import { authoriseIntent } from '../access.js';
import { addNoticeVersion, createNotice, findNoticeVersion } from '../db/intent-notices.js';
import { toNoticeJsonLd } from '../domain/notice-json-ld.js';
import { presentNotice } from '../present.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PathId } from './schemas.js';

const NoticeParams = Type.Object({ intentId: PathId });
const JSON_LD = 'application/ld+json';
const REPRESENTATIONS = ['application/json', JSON_LD];
const noticeNotFound = (version?: number) => notFound(version ? `This intent's notice has no version ${version}.` : 'This intent has no notice.');

/** The consent notice of an intent: created by the lead, read (JSON or JSON-LD) and versioned by lead and members. */
export function registerIntentNoticeRoutes(app: App, deps: RouteDeps): void {
  app.post(
    '/v1/intent/:intentId/notice',
    {
      schema: {
        tags: ['intent notices'],
        security: [{ bearer: [] }],
        params: NoticeParams,
        body: IntentNoticeBodySchema,
        response: { 201: Envelope(IntentNoticeSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { intent } = await authoriseIntent(deps.db, principal, request.params.intentId, ['lead']);
      const notice = await createNotice(deps.db, { intentId: intent.id, body: request.body, userId: principal.sub });
      return reply.code(201).send(envelope(201, 'Notice created (version 1).', presentNotice(notice)));
    },
  );

  app.get(
    '/v1/intent/:intentId/notice',
    {
      schema: {
        tags: ['intent notices'],
        security: [{ bearer: [] }],
        params: NoticeParams,
        querystring: Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) }),
        response: { 200: Envelope(IntentNoticeSchema) },
      },
    },
    async (request, reply) => {
      // Decide the representation before any work, so an unservable Accept is 406 whatever else holds.
      const type = new Negotiator(request).mediaType(REPRESENTATIONS);
      if (!type) throw new AppError(406, ErrorCode.NOT_ACCEPTABLE, `This resource is available as ${REPRESENTATIONS.join(' or ')}.`);
      const { intent } = await authoriseIntent(deps.db, principalOf(request), request.params.intentId, ['lead', 'member']);
      const found = await findNoticeVersion(deps.db, intent.id, request.query.version);
      if (!found) throw noticeNotFound(request.query.version);
      const notice = presentNotice(found);
      void reply.header('vary', 'Accept');
      if (type === JSON_LD) // The JSON-LD document is not the enveloped 200 schema: it is serialised as is.
      return reply.type(JSON_LD).serializer(JSON.stringify).send(toNoticeJsonLd(notice) as never);
      return envelope(200, `Notice version ${notice.version}.`, notice);
    },
  );

  app.put(
    '/v1/intent/:intentId/notice',
    {
      schema: {
        tags: ['intent notices'],
        security: [{ bearer: [] }],
        params: NoticeParams,
        body: IntentNoticeBodySchema,
        response: { 200: Envelope(IntentNoticeSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { intent } = await authoriseIntent(deps.db, principal, request.params.intentId, ['lead', 'member']);
      const notice = await addNoticeVersion(deps.db, { intentId: intent.id, body: request.body, userId: principal.sub });
      if (!notice) throw noticeNotFound();
      return envelope(200, `Notice updated (version ${notice.version}).`, presentNotice(notice));
    },
  );
}
