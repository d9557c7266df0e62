import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import { ErrorCode, OAuthErrorBodySchema } from '@tessera/contracts';
import { AppError, toErrorBody, type App } from '@tessera/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VerifierContext } from '../context.js';
import { REQUEST_OBJECT_MEDIA_TYPE } from '../crypto/sign-request-object.js';
import { OAuthError } from '../domain/oauth-error.js';
import { receiveWalletResponse } from '../responses/receive-wallet-response.js';
import { fetchRequestObject } from '../sessions/fetch-request-object.js';

const tags = ['wallet'];
const RequestParamsSchema = Type.Object({ authorizationRequestId: Type.String({ minLength: 1, maxLength: 200 }) });
/** OpenID4VP 1.0 §5.10: both fields optional; other fields (some wallets flatten their metadata) are ignored. */
const RequestUriPostBodySchema = Type.Union([
  Type.Object(
    {
      wallet_metadata: Type.Optional(Type.String({ maxLength: 65536 })),
      wallet_nonce: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    },
    { additionalProperties: true },
  ),
  Type.Null(),
]);

/** OpenID4VP 1.0 §8.2/§8.3: `vp_token` + `state`, `response` (JWE), or `error` (+ `error_description`, `state`); other fields ignored. */
const AuthorizationResponseFormSchema = Type.Object(
  {
    vp_token: Type.Optional(Type.String({ minLength: 1 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    response: Type.Optional(Type.String({ minLength: 1 })),
    error: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: true },
);
const AuthorizationResponseAnswerSchema = Type.Object({ redirect_uri: Type.Optional(Type.String()) });

export interface PublicRouteOptions {
  ctx: VerifierContext;
  /** Requests per client address and window on these endpoints. */
  rateLimit: { max: number; timeWindow: number };
}

/** 429 as an error the scope's handler shapes; `Retry-After` is set by the rate-limit plugin. */
export function rateLimitError(_request: FastifyRequest, context: { after: string; ttl: number }): AppError {
  return new AppError(429, ErrorCode.RATE_LIMITED, `Too many requests from this address: retry after ${Math.ceil(context.ttl / 1000)} s.`);
}

/** Wallet-facing errors: the OAuth shape (ARCHITECTURE.md), a generic sentence for 5xx. */
function oauthErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof OAuthError) {
    request.log.info({ statusCode: error.statusCode, error: error.error }, error.description);
    void reply.code(error.statusCode).send({ error: error.error, error_description: error.description });
    return;
  }
  const { body } = toErrorBody(error);
  if (body.statusCode >= 500) request.log.error({ err: error }, 'wallet request failed');
  // RFC 6749 §4.1.2.1: temporarily_unavailable for overload and for a dependency that is down (503).
  const oauthCode = body.statusCode === 429 || body.statusCode === 503 ? 'temporarily_unavailable' : body.statusCode >= 500 ? 'server_error' : 'invalid_request';
  void reply.code(body.statusCode).send({ error: oauthCode, error_description: body.message });
}

/** The public OID4VP endpoints: no auth, rate-limited per client address, OAuth-shaped errors. */
export async function registerPublicRoutes(app: App, options: PublicRouteOptions): Promise<void> {
  const { ctx } = options;
  const config = { rateLimit: options.rateLimit };
  await app.register(async (scope) => {
    const api = scope as unknown as App;
    api.get(
      '/oid4vp/platform-ca.pem',
      { config, schema: { tags, summary: 'The platform CA that issues request-signing certificates (PEM)', response: { 200: { content: { 'application/x-pem-file': { schema: Type.String() } } } } } },
      async (_request, reply) => reply.type('application/x-pem-file').header('cache-control', 'public, max-age=3600').send(ctx.ca.certificatePem),
    );
  });

  await app.register(async (scope) => {
    const api = scope as unknown as App;
    await api.register(formbody);
    api.setErrorHandler(oauthErrorHandler);
    const response = { 200: { content: { [REQUEST_OBJECT_MEDIA_TYPE]: { schema: Type.String() } } }, '4xx': OAuthErrorBodySchema };
    const send = (reply: FastifyReply, jwt: string) => reply.type(REQUEST_OBJECT_MEDIA_TYPE).header('cache-control', 'no-store').send(jwt);

    api.get(
      '/oid4vp/authorization-requests/:authorizationRequestId',
      { config, schema: { tags, summary: 'Fetch the signed request object (request_uri)', params: RequestParamsSchema, response } },
      async (request, reply) => send(reply, await fetchRequestObject(ctx, { authorizationRequestId: request.params.authorizationRequestId, requestId: request.id })),
    );

    api.post(
      '/oid4vp/authorization-requests/:authorizationRequestId',
      { config, schema: { tags, summary: 'Fetch the signed request object with wallet metadata (request_uri_method=post)', params: RequestParamsSchema, body: RequestUriPostBodySchema, response } },
      async (request, reply) => {
        const body = (request.body ?? {}) as { wallet_metadata?: string; wallet_nonce?: string };
        if (body.wallet_metadata !== undefined && !isJsonObject(body.wallet_metadata)) {
          throw new OAuthError(400, 'invalid_request', 'wallet_metadata must be a JSON object.');
        }
        const jwt = await fetchRequestObject(ctx, {
          authorizationRequestId: request.params.authorizationRequestId,
          ...(body.wallet_nonce ? { walletNonce: body.wallet_nonce } : {}),
          requestId: request.id,
        });
        return send(reply, jwt);
      },
    );

    api.post(
      '/oid4vp/authorization-responses/:authorizationRequestId',
      {
        config,
        schema: {
          tags,
          summary: 'The wallet’s authorization response (direct_post, direct_post.jwt, or a wallet error)',
          params: RequestParamsSchema,
          body: AuthorizationResponseFormSchema,
          response: { 200: AuthorizationResponseAnswerSchema, '4xx': OAuthErrorBodySchema },
        },
      },
      async (request, reply) => {
        const answer = await receiveWalletResponse(ctx, { authorizationRequestId: request.params.authorizationRequestId, fields: request.body as Record<string, unknown>, requestId: request.id });
        return reply.header('cache-control', 'no-store').send(answer);
      },
    );
  });
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
