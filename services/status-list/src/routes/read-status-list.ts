import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { ErrorCode, STATUS_LIST_MEDIA_TYPE } from '@tessera/contracts';
import { AppError, notFound, type App } from '@tessera/service-kit';
import { findStatusList } from '../db/status-lists.js';
import { computeMaxAge, ifNoneMatchHits } from '../domain/http-caching.js';
import type { CachedStatusList } from '../status-list-cache.js';
import { parseListId } from './status-list-id.js';
import type { StatusListRouteDeps } from './status-lists.js';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  // Status lists are meant to be fetched from any origin (wallets, verifiers, CDNs).
  'cross-origin-resource-policy': 'cross-origin',
};

/** GET (public, cached in memory and by HTTP caches) and its CORS preflight. */
export function registerReadRoutes(app: App, deps: StatusListRouteDeps): void {
  const { cache, database, config } = deps;
  const load = async (id: string): Promise<CachedStatusList | null> => (await findStatusList(database.db, id)) ?? null;

  app.get(
    '/status-lists/:list_id',
    {
      schema: {
        summary: 'Fetch a status list token',
        description: 'The stored JWT, byte for byte, as application/statuslist+jwt. Supports If-None-Match (304) and gzip.',
        tags: ['status lists'],
        params: Type.Object({ list_id: Type.String({ description: 'UUID v4 of the list' }) }),
        querystring: Type.Object({ time: Type.Optional(Type.String({ description: 'history is not supported: 501' })) }),
        response: {
          200: { description: 'the status list token', content: { [STATUS_LIST_MEDIA_TYPE]: { schema: Type.String() } } },
          304: { description: 'not modified: the If-None-Match validator matches' },
          404: { $ref: 'ErrorBody#' },
          406: { $ref: 'ErrorBody#' },
          501: { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      void reply.headers(CORS_HEADERS);
      const id = parseListId(request.params.list_id);
      if (request.query.time !== undefined) {
        throw new AppError(501, ErrorCode.HISTORY_NOT_SUPPORTED, 'This server keeps no history of status lists: omit the time parameter.');
      }
      const list = await cache.get(id, load);
      if (!list) throw notFound(`No status list ${id}.`);
      if (request.headers.accept && !new Negotiator(request).mediaType([STATUS_LIST_MEDIA_TYPE])) {
        throw new AppError(406, ErrorCode.NOT_ACCEPTABLE, `This resource is only available as ${STATUS_LIST_MEDIA_TYPE}.`);
      }
      const maxAge = computeMaxAge({ ttl: list.ttl, exp: list.exp, nowSeconds: Math.floor(Date.now() / 1000), defaultMaxAge: config.DEFAULT_MAX_AGE_SECONDS });
      void reply.headers({
        etag: list.etag,
        'cache-control': `public, max-age=${maxAge}`,
        'last-modified': list.updatedAt.toUTCString(),
        vary: 'Accept, Accept-Encoding',
      });
      // RFC 9110 §15.4.5: a 304 has no body (and so no Content-Length of one).
      if (ifNoneMatchHits(request.headers['if-none-match'], list.etag)) return reply.code(304).send();
      return reply.type(STATUS_LIST_MEDIA_TYPE).send(list.jwt);
    },
  );

  app.options('/status-lists/:list_id', { schema: { hide: true } as never }, async (_request, reply) =>
    reply
      .code(204)
      .headers({
        ...CORS_HEADERS,
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'Accept, If-None-Match',
        'access-control-max-age': '86400',
      })
      .send(),
  );
}
