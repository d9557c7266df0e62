import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ifNoneMatchHits, routeSchema, type App } from '@tessera/service-kit';
import { TRUST_LIST_MEDIA_TYPE } from '../domain/trust-list-uris.js';
import {
  getSignedTrustList,
  type GetSignedTrustListDeps,
  type SignedTrustListResult,
} from '../use-cases/get-signed-trust-list.js';
import { PathId } from './schemas.js';

export type TrustListRouteDeps = GetSignedTrustListDeps;

const EcosystemIdParams = Type.Object({ ecosystemId: PathId });

/** Seconds a shared cache may keep a public list: a change reaches cached readers within a minute. */
export const PUBLIC_LIST_MAX_AGE_SECONDS = 60;

/**
 * On every answer of the list, errors included, so a browser on another origin can read
 * them: the list is meant for outside verifiers. A bearer token is a header, not a
 * cookie, so an open origin gives a page nothing it could not send itself.
 */
export const TRUST_LIST_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  'cross-origin-resource-policy': 'cross-origin',
};

const PREFLIGHT_HEADERS = {
  ...TRUST_LIST_CORS_HEADERS,
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'Authorization, If-None-Match',
  'access-control-max-age': '86400',
};

/**
 * `GET /v1/ecosystem/{ecosystemId}/trust-list`, registered in a scope whose auth hook
 * lets requests without a token through (the use case serves them a public list only)
 * and whose feature gate answers 403 ECOSYSTEM_DISABLED when the feature is off.
 */
export function registerTrustListRoute(app: App, deps: TrustListRouteDeps): void {
  const schema = routeSchema(
    {
      summary: "The ecosystem's signed trust list (ETSI TS 119 602 JSON, compact JWS)",
      description:
        'application/trustlist+jwt: ES256, typ trustlist+jwt, x5c chaining to /v1/trust-list-ca.pem. The lead and active members read it with a token; ' +
        'a public list is served to anyone with ETag = "<sequence>", 304 on If-None-Match and Cache-Control public. A private list answers Cache-Control: private, no-store and no ETag. ' +
        'Rate-limited per client address (TRUST_LIST_RATE_LIMIT_MAX per TRUST_LIST_RATE_LIMIT_WINDOW_MS, IPv6 by /64): past it 429 RATE_LIMITED with Retry-After, before any token check.',
      tags: ['trust registry'],
      security: 'bearer',
      errors: [404, 429, 503],
    },
    {
      params: EcosystemIdParams,
      response: {
        200: { description: 'the signed list', content: { [TRUST_LIST_MEDIA_TYPE]: { schema: Type.String() } } },
        304: { description: 'not modified: the If-None-Match validator matches (public lists only)' },
      },
    },
  );
  // A token is optional: required for a private list, not for a public one.
  (schema as unknown as { security: unknown[] }).security = [{ bearer: [] }, {}];
  app.get('/v1/ecosystem/:ecosystemId/trust-list', { schema }, async (request, reply) => {
    void reply.headers(TRUST_LIST_CORS_HEADERS);
    const result = await getSignedTrustList(deps, {
      principal: request.principal,
      ecosystemId: request.params.ecosystemId,
    });
    return sendTrustList(reply, result, request.headers['if-none-match']);
  });
}

/** The CORS preflight of the list: transport, not an API operation (hidden from the OpenAPI document), answered without a token. */
export function registerTrustListPreflight(app: App): void {
  app.options('/v1/ecosystem/:ecosystemId/trust-list', { schema: { hide: true } as never }, async (_request, reply) =>
    reply.code(204).headers(PREFLIGHT_HEADERS).send(),
  );
}

function sendTrustList(
  reply: FastifyReply,
  result: SignedTrustListResult,
  ifNoneMatch: string | undefined,
): FastifyReply {
  if (!result.public) {
    // Read with a member's token: neither shared caches nor the browser keep it.
    return reply.header('cache-control', 'private, no-store').type(TRUST_LIST_MEDIA_TYPE).send(result.list.jws);
  }
  const etag = `"${result.list.sequence}"`;
  void reply.header('etag', etag).header('cache-control', `public, max-age=${PUBLIC_LIST_MAX_AGE_SECONDS}`);
  // RFC 9110 §15.4.5: a 304 has no body.
  if (ifNoneMatchHits(ifNoneMatch, etag)) return reply.code(304).send();
  return reply.type(TRUST_LIST_MEDIA_TYPE).send(result.list.jws);
}
