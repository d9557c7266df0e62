import { Type } from 'typebox';
import { routeSchema, type App } from '@tessera/service-kit';
import { toWalletResponseAnswer } from '../presenters/wallet-response.js';
import { receiveWalletResponse } from '../use-cases/receive-wallet-response.js';
import type { PresentationAnswerDeps } from '../use-cases/steps/presentation-answer-deps.js';
import { toOAuthError } from './oauth-error.js';

const RequestParamsSchema = Type.Object({ authorizationRequestId: Type.String({ minLength: 1, maxLength: 200 }) });
/** OpenID4VP 1.0 §8.2/§8.3: `vp_token` + `state`, `response` (JWE), or `error` + `state` (+ `error_description`); other fields ignored. */
const AuthorizationResponseFormSchema = Type.Object(
  {
    vp_token: Type.Optional(Type.String({ minLength: 1 })),
    state: Type.Optional(
      Type.String({
        maxLength: 512,
        description:
          'The state of the authorization request; required with vp_token and with error (a JWE carries it inside).',
      }),
    ),
    response: Type.Optional(Type.String({ minLength: 1 })),
    error: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: true },
);
const AuthorizationResponseAnswerSchema = Type.Object({ redirect_uri: Type.Optional(Type.String()) });

/** The wallet's answer at `response_uri` (`direct_post`, `direct_post.jwt`). */
export function registerAuthorizationResponseRoutes(
  app: App,
  deps: PresentationAnswerDeps,
  rateLimit: { max: number; timeWindow: number },
): void {
  app.post(
    '/oid4vp/authorization-responses/:authorizationRequestId',
    {
      config: { rateLimit },
      schema: routeSchema(
        {
          summary: 'The wallet’s authorization response (direct_post, direct_post.jwt, or a wallet error)',
          tags: ['wallet'],
          security: 'public',
          errors: [404, 413, 415, 429, 503],
          errorBody: 'oauth',
        },
        {
          params: RequestParamsSchema,
          body: AuthorizationResponseFormSchema,
          response: { 200: AuthorizationResponseAnswerSchema },
        },
      ),
    },
    async (request, reply) => {
      const received = await receiveWalletResponse(deps, {
        authorizationRequestId: request.params.authorizationRequestId,
        fields: request.body as Record<string, unknown>,
        requestId: request.id,
      });
      if (!received.ok) throw toOAuthError(received.refusal, 'response_uri');
      return reply.header('cache-control', 'no-store').send(toWalletResponseAnswer(received.value));
    },
  );
}
