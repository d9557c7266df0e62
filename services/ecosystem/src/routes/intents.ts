import { Type } from 'typebox';
import { IntentBodySchema, IntentSchema, type IntentBody } from '@tessera/contracts';
import { envelope, pageWindow, principalOf, toPage, type App } from '@tessera/service-kit';
import { authoriseEcosystem, authoriseIntent, intentNotFound } from '../access.js';
import { createIntent, deleteIntent, listIntents, updateIntent } from '../db/intents.js';
import { normaliseName } from '../domain/names.js';
import { presentIntent } from '../present.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PagedEnvelope, PagedQuery, PathId } from './schemas.js';

const IntentIdParams = Type.Object({ intentId: PathId });

/** Body rules beyond the schema, checked before authorisation like the schema is. */
function normaliseIntentBody(body: IntentBody): IntentBody {
  return { name: normaliseName({ value: body.name, path: '/name', min: 1, max: 100 }), description: body.description.trim() };
}

/** Intents of an ecosystem: the lead defines them, lead and members read them. */
export function registerIntentRoutes(app: App, deps: RouteDeps): void {
  app.post(
    '/v1/intent/ecosystem/:ecosystemId',
    {
      schema: {
        tags: ['intents'],
        security: [{ bearer: [] }],
        params: Type.Object({ ecosystemId: PathId }),
        body: IntentBodySchema,
        response: { 201: Envelope(IntentSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = normaliseIntentBody(request.body);
      const { ecosystem } = await authoriseEcosystem(deps.db, principal, request.params.ecosystemId, ['lead']);
      const intent = await createIntent(deps.db, { ecosystemId: ecosystem.id, body, userId: principal.sub });
      return reply.code(201).send(envelope(201, 'Intent created.', presentIntent(intent)));
    },
  );

  app.get(
    '/v1/intent/ecosystem/:ecosystemId',
    {
      schema: {
        tags: ['intents'],
        security: [{ bearer: [] }],
        params: Type.Object({ ecosystemId: PathId }),
        querystring: PagedQuery({}),
        response: { 200: PagedEnvelope(IntentSchema) },
      },
    },
    async (request) => {
      const { ecosystem } = await authoriseEcosystem(deps.db, principalOf(request), request.params.ecosystemId, ['lead', 'member']);
      const window = pageWindow(request.query);
      const { rows, total } = await listIntents(deps.db, ecosystem.id, window);
      return envelope(200, 'Intents.', toPage(rows.map(presentIntent), total, window));
    },
  );

  app.get(
    '/v1/intent/:intentId',
    { schema: { tags: ['intents'], security: [{ bearer: [] }], params: IntentIdParams, response: { 200: Envelope(IntentSchema) } } },
    async (request) => {
      const { intent } = await authoriseIntent(deps.db, principalOf(request), request.params.intentId, ['lead', 'member']);
      return envelope(200, 'Intent.', presentIntent(intent));
    },
  );

  app.put(
    '/v1/intent/:intentId',
    { schema: { tags: ['intents'], security: [{ bearer: [] }], params: IntentIdParams, body: IntentBodySchema, response: { 200: Envelope(IntentSchema) } } },
    async (request) => {
      const principal = principalOf(request);
      const body = normaliseIntentBody(request.body);
      const { intent } = await authoriseIntent(deps.db, principal, request.params.intentId, ['lead']);
      const updated = await updateIntent(deps.db, { id: intent.id, body, userId: principal.sub });
      if (!updated) throw intentNotFound();
      return envelope(200, 'Intent updated.', presentIntent(updated));
    },
  );

  app.delete(
    '/v1/intent/:intentId',
    { schema: { tags: ['intents'], security: [{ bearer: [] }], params: IntentIdParams, response: { 200: Envelope(IntentSchema) } } },
    async (request) => {
      const { intent } = await authoriseIntent(deps.db, principalOf(request), request.params.intentId, ['lead']);
      const deleted = await deleteIntent(deps.db, intent.id);
      if (!deleted) throw intentNotFound();
      return envelope(200, 'Intent deleted.', presentIntent(deleted));
    },
  );
}
