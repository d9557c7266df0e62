import compress from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  CreateStatusListBodySchema,
  ErrorCode,
  STATUS_LIST_CWT_MEDIA_TYPE,
  STATUS_LIST_MEDIA_TYPE,
  Page,
  PagingQuerySchema,
  StatusListAggregationSchema,
  StatusListVersionSchema,
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
import { tokenMissingOrTwice } from '../domain/errors.js';
import { parseListId } from '../domain/status-list-id.js';
import { mediaTypeOf, parseSubmittedToken, type SubmittedToken } from '../domain/status-list-token.js';
import type { HistoryMetrics } from '../metrics/history-metrics.js';
import type { CacheOutcome, StatusListMetrics } from '../metrics/status-list-metrics.js';
import type { DocumentRepresentation } from '../presenters/document-representation.js';
import { AGGREGATION_MEDIA_TYPE, AggregationRepresentations } from '../presenters/status-list-aggregation.js';
import { presentStatusListRecord, statusListLocation } from '../presenters/status-list.js';
import { acceptsMediaType, chooseContentEncoding } from '../presenters/content-negotiation.js';
import { StatusListRepresentations } from '../presenters/status-list-representation.js';
import { createStatusList, type CreateStatusListDeps } from '../use-cases/create-status-list.js';
import {
  readStatusListAggregation,
  type ReadStatusListAggregationDeps,
  type ReadStatusListAggregationResult,
} from '../use-cases/read-status-list-aggregation.js';
import { readStatusList, type ReadStatusListDeps, type ReadStatusListResult } from '../use-cases/read-status-list.js';
import { readStatusListVersions, type ReadStatusListVersionsDeps } from '../use-cases/read-status-list-versions.js';
import { presentStatusListVersions } from '../presenters/status-list-versions.js';
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
  useCases: CreateStatusListDeps &
    UpdateStatusListDeps &
    ReadStatusListDeps &
    ReadStatusListAggregationDeps &
    ReadStatusListVersionsDeps;
  /** Reads by cache outcome and status, writes by result. */
  metrics: StatusListMetrics;
  /** History reads by status. */
  historyMetrics: Pick<HistoryMetrics, 'recordHistoryRead'>;
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

/** The token of a write body: exactly one of `jwt` and `cwt` (400 VALIDATION_FAILED otherwise). */
function submittedToken(body: { jwt?: string; cwt?: string }): SubmittedToken {
  const token = parseSubmittedToken(body);
  if (Array.isArray(token)) throw tokenMissingOrTwice(token);
  return token;
}

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
        {
          summary: 'Store a new status list',
          description:
            'Send the issuer-signed token as jwt (compact JWS, typ statuslist+jwt) or as cwt (base64url of a tagged COSE_Sign1, typ application/statuslist+cwt); the list keeps that form. 400 INVALID_STATUS_LIST_JWT / INVALID_STATUS_LIST_CWT name each broken rule.',
          tags: TAGS,
          security: 'apiKey',
          errors: [409, 413, 415],
        },
        { body: CreateStatusListBodySchema, response: { 201: StatusListRecordSchema } },
      ),
    },
    async (request, reply) => {
      const row = await metrics.countWrite('create', () =>
        createStatusList(useCases, { id: request.body.id, ...submittedToken(request.body) }),
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
          description:
            'The newer token in the form the list was created in (400 FORMAT_MISMATCH otherwise); bits and sub stay as at creation (409 BITS_MISMATCH, SUBJECT_MISMATCH), iat never goes back (409 STALE_UPDATE). The replaced token is kept as a version (history) for STATUS_LIST_HISTORY_DAYS.',
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
        updateStatusList(useCases, { id: parseListId(request.params.list_id), ...submittedToken(request.body) }),
      );
      return presentStatusListRecord(row);
    },
  );
}

/** GETs (public, cached in memory and by HTTP caches) and their CORS preflight. */
function registerReadRoutes(app: App, deps: StatusListRouteDeps): void {
  const { useCases, metrics, historyMetrics } = deps;
  // Reads that looked a list up, by where it was found; counted with their status once answered.
  const lookups = new WeakMap<FastifyRequest, CacheOutcome>();
  // A successful read logs nothing at the production level: no child logger unless a line is logged.
  app.setChildLoggerFactory(createLazyRequestLogger);
  const representationOptions = {
    defaultMaxAgeSeconds: deps.defaultMaxAgeSeconds,
    compressionThreshold: COMPRESSION_THRESHOLD_BYTES,
    now: deps.now,
  };
  const representations = new StatusListRepresentations(representationOptions);
  const aggregations = new AggregationRepresentations(representationOptions);

  /**
   * Answers with a document as the request asks: 406 when `Accept` excludes its media
   * type, 304, or its bytes in the negotiated content coding, with headers computed
   * once per value (its representation). Synchronous unless a coding is asked for the
   * first time since the value was cached.
   */
  const sendDocument = (
    request: FastifyRequest,
    reply: FastifyReply,
    representation: DocumentRepresentation,
    mediaType: string,
    what: string,
  ): void | Promise<void> => {
    const accept = request.headers.accept;
    if (accept && !acceptsMediaType(accept, mediaType)) {
      throw new AppError(406, ErrorCode.NOT_ACCEPTABLE, `${what} is only available as ${mediaType}.`);
    }
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

  /** A list in its form (JWT or CWT): the stored token's bytes as its media type. */
  const sendList = (request: FastifyRequest, reply: FastifyReply, list: ReadStatusListResult): void | Promise<void> =>
    sendDocument(request, reply, representations.of(list), mediaTypeOf(list), 'This resource');

  app.get(
    '/status-lists/:list_id',
    {
      schema: routeSchema(
        {
          summary: 'Fetch a status list token',
          description: `The stored token, byte for byte, in the form the list was created in: ${STATUS_LIST_MEDIA_TYPE} (the compact JWS) or ${STATUS_LIST_CWT_MEDIA_TYPE} (the COSE_Sign1 bytes); an Accept that excludes it is 406. Supports If-None-Match (304) and br/gzip/deflate. With ?time=<unix seconds>, the version valid at that time (the newest whose iat ≤ time and whose exp, when present, lies after it): 404 NO_STATUS_AT_TIME when none is kept, 501 HISTORY_NOT_SUPPORTED when the server keeps no history.`,
          tags: TAGS,
          security: 'public',
          errors: [404, 406, 501],
        },
        {
          params: ListIdParams,
          querystring: Type.Object({
            time: Type.Optional(
              Type.String({
                description:
                  'unix timestamp (whole seconds): answer the version of the list that was valid then (draft-ietf-oauth-status-list, Historical Resolution); 400 when malformed',
                examples: ['1686925000'],
              }),
            ),
          }),
          response: {
            200: {
              description: 'the status list token, as it was stored',
              content: {
                [STATUS_LIST_MEDIA_TYPE]: { schema: Type.String({ description: 'compact JWS' }) },
                [STATUS_LIST_CWT_MEDIA_TYPE]: {
                  schema: Type.String({ format: 'binary', description: 'the tagged COSE_Sign1 bytes' }),
                },
              },
            },
            304: { description: 'not modified: the If-None-Match validator matches' },
          },
        },
      ),
      onResponse: (request, reply, done) => {
        const cache = lookups.get(request);
        if (cache) metrics.recordRead(cache, reply.statusCode);
        else if (request.query.time !== undefined) historyMetrics.recordHistoryRead(reply.statusCode);
        done();
      },
    },
    // Not an async function: a list this replica holds is answered without a promise
    // (the cache and the use case answer synchronously on a hit); a miss returns one.
    (request, reply) => {
      // Errors answered by this route carry them too, so a browser can read them.
      void reply.headers(CORS_HEADERS);
      const id = parseListId(request.params.list_id);
      // readStatusList answers (or throws) synchronously exactly on a cache hit; `time` looks nothing up in the cache.
      if (request.query.time === undefined) lookups.set(request, 'hit');
      const list = readStatusList(useCases, { id, time: request.query.time });
      if (list instanceof Promise) {
        if (request.query.time === undefined) lookups.set(request, 'miss');
        return list.then((found) => sendList(request, reply, found));
      }
      return sendList(request, reply, list);
    },
  );

  // A static path wins over `:list_id` in Fastify's router whatever the order of
  // registration, and "aggregation" is no UUID v4, so this hides no list.
  app.get(
    '/status-lists/aggregation',
    {
      schema: routeSchema(
        {
          summary: 'The Status List Aggregation: the URI of every list',
          description:
            'draft-ietf-oauth-status-list, Status List Aggregation: { "status_lists": [ <URI of every status list this service holds> ] } as application/json, each URI the sub of its list. Issuers name this URI as aggregation_uri in their lists. Supports If-None-Match (304) and br/gzip/deflate.',
          tags: TAGS,
          security: 'public',
          errors: [406],
        },
        {
          response: {
            200: {
              description: 'the aggregation',
              content: { [AGGREGATION_MEDIA_TYPE]: { schema: StatusListAggregationSchema } },
            },
            304: { description: 'not modified: the If-None-Match validator matches' },
          },
        },
      ),
    },
    (request, reply) => {
      void reply.headers(CORS_HEADERS);
      const aggregation = readStatusListAggregation(useCases);
      const send = (found: ReadStatusListAggregationResult) =>
        sendDocument(request, reply, aggregations.of(found), AGGREGATION_MEDIA_TYPE, 'The aggregation');
      return aggregation instanceof Promise ? aggregation.then(send) : send(aggregation);
    },
  );

  app.get(
    '/status-lists/:list_id/versions',
    {
      schema: routeSchema(
        {
          summary: "A status list's versions",
          description:
            "The list's tokens, newest first: the current one (the first entry, current: true), then each kept version, the most recently replaced first, with its iat, exp, ttl, ETag, when it became current (storedAt) and when it was replaced (replacedAt). Open one with GET /status-lists/{list_id}?time=<its iat>. Paged (pageNumber, pageSize); public, like the list. 404 for an unknown list, 501 HISTORY_NOT_SUPPORTED when the server keeps no history (STATUS_LIST_HISTORY_DAYS=0).",
          tags: TAGS,
          security: 'public',
          errors: [404, 501],
        },
        {
          params: ListIdParams,
          querystring: PagingQuerySchema,
          response: { 200: Page(StatusListVersionSchema) },
        },
      ),
      onResponse: (_request, reply, done) => {
        historyMetrics.recordHistoryRead(reply.statusCode);
        done();
      },
    },
    async (request, reply) => {
      void reply.headers(CORS_HEADERS).header('cache-control', 'no-cache');
      const page = await readStatusListVersions(useCases, {
        id: parseListId(request.params.list_id),
        pageNumber: request.query.pageNumber ?? 1,
        pageSize: request.query.pageSize ?? 10,
      });
      return presentStatusListVersions(page);
    },
  );

  // The preflight is transport, not an API operation: hidden from the OpenAPI document.
  for (const path of ['/status-lists/:list_id', '/status-lists/:list_id/versions']) {
    app.options(path, { schema: { hide: true } as never }, async (_request, reply) =>
      reply.code(204).headers(PREFLIGHT_HEADERS).send(),
    );
  }
}
