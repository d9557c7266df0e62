import { Type } from 'typebox';
import { routeSchema, type App } from '@tessera/service-kit';
import type { FastifyReply } from 'fastify';
import { REQUEST_OBJECT_MEDIA_TYPE } from '../domain/request-object.js';
import type { WalletOutcome } from '../domain/wallet-refusal.js';
import { fetchRequestObject, type FetchRequestObjectDeps } from '../use-cases/fetch-request-object.js';
import { toOAuthError } from './oauth-error.js';

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
const SignedRequestObjectSchema = { content: { [REQUEST_OBJECT_MEDIA_TYPE]: { schema: Type.String() } } };
const doc = { tags, security: 'public', errors: [404, 429], errorBody: 'oauth' } as const;

export type AuthorizationRequestRouteDeps = FetchRequestObjectDeps;

/** The request object by reference (`request_uri`), fetched with GET or POST. */
export function registerAuthorizationRequestRoutes(
  app: App,
  deps: AuthorizationRequestRouteDeps,
  rateLimit: { max: number; timeWindow: number },
): void {
  const config = { rateLimit };
  const send = (reply: FastifyReply, fetched: WalletOutcome<string>) => {
    if (!fetched.ok) throw toOAuthError(fetched.refusal, 'request_uri');
    return reply.type(REQUEST_OBJECT_MEDIA_TYPE).header('cache-control', 'no-store').send(fetched.value);
  };

  app.get(
    '/oid4vp/authorization-requests/:authorizationRequestId',
    {
      config,
      schema: routeSchema(
        { ...doc, summary: 'Fetch the signed request object (request_uri)' },
        { params: RequestParamsSchema, response: { 200: SignedRequestObjectSchema } },
      ),
    },
    async (request, reply) =>
      send(
        reply,
        await fetchRequestObject(deps, {
          authorizationRequestId: request.params.authorizationRequestId,
          requestId: request.id,
        }),
      ),
  );

  app.post(
    '/oid4vp/authorization-requests/:authorizationRequestId',
    {
      config,
      schema: routeSchema(
        {
          ...doc,
          errors: [...doc.errors, 413, 415],
          summary: 'Fetch the signed request object with wallet metadata (request_uri_method=post)',
        },
        { params: RequestParamsSchema, body: RequestUriPostBodySchema, response: { 200: SignedRequestObjectSchema } },
      ),
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as { wallet_metadata?: string; wallet_nonce?: string };
      const fetched = await fetchRequestObject(deps, {
        authorizationRequestId: request.params.authorizationRequestId,
        ...(body.wallet_metadata !== undefined ? { walletMetadata: body.wallet_metadata } : {}),
        ...(body.wallet_nonce ? { walletNonce: body.wallet_nonce } : {}),
        requestId: request.id,
      });
      return send(reply, fetched);
    },
  );
}
