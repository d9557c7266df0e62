import compress from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  CreateStatusListBodySchema,
  ErrorCode,
  STATUS_LIST_MEDIA_TYPE,
  StatusListRecordSchema,
  UpdateStatusListBodySchema,
} from '@tessera/contracts';
import {
  AppError,
  createApiKeyHook,
  createLazyRequestLogger,
  ifNoneMatchHits,
  routeSchema,
  type App,
} from '@tessera/service-kit';
import { parseListId } from '../domain/status-list-id.js';
import type { CacheOutcome, StatusListMetrics } from '../metrics/status-list-metrics.js';
import { presentStatusListRecord, statusListLocation } from '../presenters/status-list.js';
import { acceptsStatusList, chooseContentEncoding } from '../presenters/content-negotiation.js';
import { StatusListRepresentations } from '../presenters/status-list-representation.js';
import { createStatusList, type CreateStatusListDeps } from '../use-cases/create-status-list.js';
import { readStatusList, type ReadStatusListDeps, type ReadStatusListResult } from '../use-cases/read-status-list.js';
import { updateStatusList, type UpdateStatusListDeps } from '../use-cases/update-status-list.js';

export interface StatusListRouteDeps {
  /** The write secret in force (`x-api-key`). */
  apiKey: string;
  /** PUBLIC_BASE_URL, for `Location` headers. */
  publicBaseUrl: string | undefined;
  /** DEFAULT_MAX_AGE_SECONDS: `max-age` of lists without `ttl` or `exp`. */
  defaultMaxAgeSeconds: number;
  /** The clock in ms since the epoch: `max-age` counts down to a list's `exp` by it. */
  now: () => number;
  /** What the operations use, wired once by `buildApp`. */
  useCases: CreateStatusListDeps & UpdateStatusListDeps & ReadStatusListDeps;
  /** Reads by cache outcome and status, writes by result. */
  metrics: StatusListMetrics;
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

/** Bodies below this size are served as they are: compressing them would not pay. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

export async function registerStatusListRoutes(app: App, deps: StatusListRouteDeps): Promise<void> {
  await app.register(async (writes) => registerWriteRoutes(writes as App, deps));
  await app.register(async (reads) => registerReadRoutes(reads as App, deps));
}

/** POST and PATCH: authenticated writes of issuer-signed lists. */
async function registerWriteRoutes(app: App, deps: StatusListRouteDeps): Promise<void> {
  const { useCases, metrics } = deps;
  // Compressed request bodies (Content-Encoding) are accepted, and JSON answers above
  // the threshold compressed. Reads keep their encodings with the cached list instead,
  // so the plugin's per-request hooks stay in this scope, off the read path.
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: /^(application\/json|text\/)/,
  });
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
      const row = await metrics.countWrite('create', () =>
        createStatusList(useCases, { id: request.body.id, jwt: request.body.jwt }),
      );
      return reply
        .code(201)
        .header('location', statusListLocation(deps.publicBaseUrl, row.id))
        .send(presentStatusListRecord(row));
    },
  );

  app.patch(
    '/status-lists/:list_id',
    {
      schema: routeSchema(
        {
          summary: 'Replace a status list with a newer token',
          tags: TAGS,
          security: 'apiKey',
          errors: [404, 409, 413, 415],
        },
        { params: ListIdParams, body: UpdateStatusListBodySchema, response: { 200: StatusListRecordSchema } },
      ),
      // The path id is checked before the body: a malformed id reads as an unknown list (404).
      preValidation: async (request) => {
        parseListId((request.params as { list_id: string }).list_id);
      },
    },
    async (request) => {
      const row = await metrics.countWrite('update', () =>
        updateStatusList(useCases, { id: parseListId(request.params.list_id), jwt: request.body.jwt }),
      );
      return presentStatusListRecord(row);
    },
  );
}

/** GET (public, cached in memory and by HTTP caches) and its CORS preflight. */
function registerReadRoutes(app: App, deps: StatusListRouteDeps): void {
  const { useCases, metrics } = deps;
  // Reads that looked a list up, by where it was found; counted with their status once answered.
  const lookups = new WeakMap<FastifyRequest, CacheOutcome>();
  // A successful read logs nothing at the production level: no child logger unless a line is logged.
  app.setChildLoggerFactory(createLazyRequestLogger);
  const representations = new StatusListRepresentations({
    defaultMaxAgeSeconds: deps.defaultMaxAgeSeconds,
    compressionThreshold: COMPRESSION_THRESHOLD_BYTES,
    now: deps.now,
  });

  /**
   * Answers with `list` as the request asks: 406, 304, or the token in the negotiated
   * content coding, with headers computed once per cached list (its representation).
   * Synchronous unless a coding is asked for the first time since the list was cached.
   */
  const sendList = (request: FastifyRequest, reply: FastifyReply, list: ReadStatusListResult): void | Promise<void> => {
    const accept = request.headers.accept;
    if (accept && !acceptsStatusList(accept)) {
      throw new AppError(
        406,
        ErrorCode.NOT_ACCEPTABLE,
        `This resource is only available as ${STATUS_LIST_MEDIA_TYPE}.`,
      );
    }
    const representation = representations.of(list);
    if (ifNoneMatchHits(request.headers['if-none-match'], representation.etag)) {
      // RFC 9110 §15.4.5: a 304 has no body (and so no Content-Length of one).
      void reply.code(304).headers(representation.notModifiedHeaders()).send();
      return;
    }
    const answer = representation.encoded(chooseContentEncoding(request.headers['accept-encoding']));
    if (answer instanceof Promise) {
      return answer.then((ready) => {
        void reply.headers(ready.headers).send(ready.body);
      });
    }
    void reply.headers(answer.headers).send(answer.body);
  };

  app.get(
    '/status-lists/:list_id',
    {
      schema: routeSchema(
        {
          summary: 'Fetch a status list token',
          description:
            'The stored JWT, byte for byte, as application/statuslist+jwt. Supports If-None-Match (304) and br/gzip/deflate.',
          tags: TAGS,
          security: 'public',
          errors: [404, 406, 501],
        },
        {
          params: ListIdParams,
          querystring: Type.Object({
            time: Type.Optional(Type.String({ description: 'history is not supported: 501' })),
          }),
          response: {
            200: {
              description: 'the status list token',
              content: { [STATUS_LIST_MEDIA_TYPE]: { schema: Type.String() } },
            },
            304: { description: 'not modified: the If-None-Match validator matches' },
          },
        },
      ),
      onResponse: (request, reply, done) => {
        const cache = lookups.get(request);
        if (cache) metrics.recordRead(cache, reply.statusCode);
        done();
      },
    },
    // Not an async function: a list this replica holds is answered without a promise
    // (the cache and the use case answer synchronously on a hit); a miss returns one.
    (request, reply) => {
      // Errors answered by this route carry them too, so a browser can read them.
      void reply.headers(CORS_HEADERS);
      const id = parseListId(request.params.list_id);
      // readStatusList answers (or throws) synchronously exactly on a cache hit; `time` looks nothing up.
      if (request.query.time === undefined) lookups.set(request, 'hit');
      const list = readStatusList(useCases, { id, time: request.query.time });
      if (list instanceof Promise) {
        lookups.set(request, 'miss');
        return list.then((found) => sendList(request, reply, found));
      }
      return sendList(request, reply, list);
    },
  );

  // The preflight is transport, not an API operation: hidden from the OpenAPI document.
  app.options('/status-lists/:list_id', { schema: { hide: true } as never }, async (_request, reply) =>
    reply.code(204).headers(PREFLIGHT_HEADERS).send(),
  );
}
