import compress from '@fastify/compress';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { CreateStatusListBodySchema, ErrorCode, STATUS_LIST_MEDIA_TYPE, StatusListRecordSchema, UpdateStatusListBodySchema } from '@tessera/contracts';
import { AppError, routeSchema, type App } from '@tessera/service-kit';
import { ifNoneMatchHits } from '../domain/http-caching.js';
import { presentServingHeaders, presentStatusListRecord, statusListLocation } from '../presenters/status-list.js';
import { createStatusList, type CreateStatusListDeps } from '../use-cases/create-status-list.js';
import { readStatusList, type ReadStatusListDeps } from '../use-cases/read-status-list.js';
import { updateStatusList, type UpdateStatusListDeps } from '../use-cases/update-status-list.js';
import { createApiKeyHook } from './api-key-hook.js';
import { parseListId } from './status-list-id.js';

export interface StatusListRouteDeps {
  /** The write secret in force (`x-api-key`). */
  apiKey: string;
  /** PUBLIC_BASE_URL, for `Location` headers. */
  publicBaseUrl: string | undefined;
  /** DEFAULT_MAX_AGE_SECONDS: `max-age` of lists without `ttl` or `exp`. */
  defaultMaxAgeSeconds: number;
  /** What the operations use, wired once by `buildApp`. */
  useCases: CreateStatusListDeps & UpdateStatusListDeps & ReadStatusListDeps;
}

const TAGS = ['status lists'];
const ListIdParams = Type.Object({ list_id: Type.String({ description: 'UUID v4 of the list' }) });

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  // Status lists are meant to be fetched from any origin (wallets, verifiers, CDNs).
  'cross-origin-resource-policy': 'cross-origin',
};

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'Accept, If-None-Match',
  'access-control-max-age': '86400',
};

export async function registerStatusListRoutes(app: App, deps: StatusListRouteDeps): Promise<void> {
  // gzip/deflate/br when the client asks for it; status list tokens compress well.
  await app.register(compress, { global: true, threshold: 1024, customTypes: /^(application\/(statuslist\+jwt|json)|text\/)/ });
  await app.register(async (writes) => registerWriteRoutes(writes as App, deps));
  await app.register(async (reads) => registerReadRoutes(reads as App, deps));
}

/** POST and PATCH: authenticated writes of issuer-signed lists. */
function registerWriteRoutes(app: App, deps: StatusListRouteDeps): void {
  const { useCases } = deps;
  // Authentication comes first: before the body is parsed or anything is validated.
  app.addHook('onRequest', createApiKeyHook(deps.apiKey));

  app.post(
    '/status-lists',
    {
      schema: routeSchema(
        { summary: 'Store a new status list', tags: TAGS, security: 'apiKey', errors: [409, 413, 415] },
        { body: CreateStatusListBodySchema, response: { 201: StatusListRecordSchema } },
      ),
    },
    async (request, reply) => {
      const row = await createStatusList(useCases, { id: request.body.id, jwt: request.body.jwt });
      return reply.code(201).header('location', statusListLocation(deps.publicBaseUrl, row.id)).send(presentStatusListRecord(row));
    },
  );

  app.patch(
    '/status-lists/:list_id',
    {
      schema: routeSchema(
        { summary: 'Replace a status list with a newer token', tags: TAGS, security: 'apiKey', errors: [404, 409, 413, 415] },
        { params: ListIdParams, body: UpdateStatusListBodySchema, response: { 200: StatusListRecordSchema } },
      ),
      // The path id is checked before the body: a malformed id reads as an unknown list (404).
      preValidation: async (request) => {
        parseListId((request.params as { list_id: string }).list_id);
      },
    },
    async (request) => {
      const row = await updateStatusList(useCases, { id: parseListId(request.params.list_id), jwt: request.body.jwt });
      return presentStatusListRecord(row);
    },
  );
}

/** GET (public, cached in memory and by HTTP caches) and its CORS preflight. */
function registerReadRoutes(app: App, deps: StatusListRouteDeps): void {
  const { useCases, defaultMaxAgeSeconds } = deps;

  app.get(
    '/status-lists/:list_id',
    {
      schema: routeSchema(
        {
          summary: 'Fetch a status list token',
          description: 'The stored JWT, byte for byte, as application/statuslist+jwt. Supports If-None-Match (304) and gzip.',
          tags: TAGS,
          security: 'public',
          errors: [404, 406, 501],
        },
        {
          params: ListIdParams,
          querystring: Type.Object({ time: Type.Optional(Type.String({ description: 'history is not supported: 501' })) }),
          response: {
            200: { description: 'the status list token', content: { [STATUS_LIST_MEDIA_TYPE]: { schema: Type.String() } } },
            304: { description: 'not modified: the If-None-Match validator matches' },
          },
        },
      ),
    },
    async (request, reply) => {
      void reply.headers(CORS_HEADERS);
      const list = await readStatusList(useCases, { id: parseListId(request.params.list_id), time: request.query.time });
      if (request.headers.accept && !new Negotiator(request).mediaType([STATUS_LIST_MEDIA_TYPE])) {
        throw new AppError(406, ErrorCode.NOT_ACCEPTABLE, `This resource is only available as ${STATUS_LIST_MEDIA_TYPE}.`);
      }
      void reply.headers(presentServingHeaders(list, Math.floor(Date.now() / 1000), defaultMaxAgeSeconds));
      // RFC 9110 §15.4.5: a 304 has no body (and so no Content-Length of one).
      if (ifNoneMatchHits(request.headers['if-none-match'], list.etag)) return reply.code(304).send();
      return reply.type(STATUS_LIST_MEDIA_TYPE).send(list.jwt);
    },
  );

  // The preflight is transport, not an API operation: hidden from the OpenAPI document.
  app.options('/status-lists/:list_id', { schema: { hide: true } as never }, async (_request, reply) => reply.code(204).headers(PREFLIGHT_HEADERS).send());
}
