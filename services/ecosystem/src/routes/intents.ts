import { Type } from 'typebox';
import { IntentBodySchema, IntentSchema } from '@tessera/contracts';
import {
  envelope,
  pageWindow,
  principalOf,
  routeSchema,
  toPage,
  type App,
  envelopeOf,
  pageEnvelopeOf,
  pagingQueryWith,
} from '@tessera/service-kit';
import { presentIntent } from '../presenters/intents.js';
import { createIntent, type CreateIntentDeps } from '../use-cases/create-intent.js';
import { deleteIntent, type DeleteIntentDeps } from '../use-cases/delete-intent.js';
import { getIntent, type GetIntentDeps } from '../use-cases/get-intent.js';
import { listEcosystemIntents, type ListEcosystemIntentsDeps } from '../use-cases/list-ecosystem-intents.js';
import { updateIntent, type UpdateIntentDeps } from '../use-cases/update-intent.js';
import { PathId } from './schemas.js';

export type IntentRouteDeps = CreateIntentDeps &
  ListEcosystemIntentsDeps &
  GetIntentDeps &
  UpdateIntentDeps &
  DeleteIntentDeps;

const EcosystemIdParams = Type.Object({ ecosystemId: PathId });
const IntentIdParams = Type.Object({ intentId: PathId });

/** Intents of an ecosystem: the lead defines them, lead and members read them. */
export function registerIntentRoutes(app: App, deps: IntentRouteDeps): void {
  app.post(
    '/v1/intent/ecosystem/:ecosystemId',
    {
      schema: routeSchema(
        {
          summary: 'Create an intent in the ecosystem',
          description: 'Lead only. Names are unique per ecosystem, ignoring case (409 INTENT_NAME_TAKEN).',
          tags: ['intents'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        { params: EcosystemIdParams, body: IntentBodySchema, response: { 201: envelopeOf(IntentSchema) } },
      ),
    },
    async (request, reply) => {
      const intent = await createIntent(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        body: request.body,
      });
      return reply.code(201).send(envelope(201, 'Intent created.', presentIntent(intent)));
    },
  );

  app.get(
    '/v1/intent/ecosystem/:ecosystemId',
    {
      schema: routeSchema(
        {
          summary: "List the ecosystem's intents, newest first",
          tags: ['intents'],
          security: 'bearer',
          errors: [404, 503],
        },
        {
          params: EcosystemIdParams,
          querystring: pagingQueryWith({}),
          response: { 200: pageEnvelopeOf(IntentSchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystemIntents(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        window,
      });
      return envelope(200, 'Intents.', toPage(rows.map(presentIntent), total, window));
    },
  );

  app.get(
    '/v1/intent/:intentId',
    {
      schema: routeSchema(
        { summary: 'Get an intent', tags: ['intents'], security: 'bearer', errors: [404, 503] },
        { params: IntentIdParams, response: { 200: envelopeOf(IntentSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Intent.',
        presentIntent(await getIntent(deps, { principal: principalOf(request), intentId: request.params.intentId })),
      ),
  );

  app.put(
    '/v1/intent/:intentId',
    {
      schema: routeSchema(
        {
          summary: "Replace an intent's name and description",
          tags: ['intents'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        { params: IntentIdParams, body: IntentBodySchema, response: { 200: envelopeOf(IntentSchema) } },
      ),
    },
    async (request) => {
      const intent = await updateIntent(deps, {
        principal: principalOf(request),
        intentId: request.params.intentId,
        body: request.body,
      });
      return envelope(200, 'Intent updated.', presentIntent(intent));
    },
  );

  app.delete(
    '/v1/intent/:intentId',
    {
      schema: routeSchema(
        {
          summary: 'Delete an intent',
          description:
            'Lead only. An intent that still has intent templates or a notice is not deleted (409 IN_USE). Answers the deleted intent.',
          tags: ['intents'],
          security: 'bearer',
          errors: [404, 409, 503],
        },
        { params: IntentIdParams, response: { 200: envelopeOf(IntentSchema) } },
      ),
    },
    async (request) => {
      const intent = await deleteIntent(deps, { principal: principalOf(request), intentId: request.params.intentId });
      return envelope(200, 'Intent deleted.', presentIntent(intent));
    },
  );
}
