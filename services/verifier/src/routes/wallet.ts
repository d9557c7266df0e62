import formbody from '@fastify/formbody';
import type { App } from '@tessera/service-kit';
import { registerAuthorizationRequestRoutes, type AuthorizationRequestRouteDeps } from './authorization-requests.js';
import type { PresentationAnswerDeps } from '../use-cases/steps/presentation-answer-deps.js';
import { registerAuthorizationResponseRoutes } from './authorization-responses.js';
import { oauthErrorHandler } from './public-errors.js';

export interface WalletRouteOptions {
  requests: AuthorizationRequestRouteDeps;
  responses: PresentationAnswerDeps;
  /** Requests per client address and window on these endpoints. */
  rateLimit: { max: number; timeWindow: number };
}

/** The public OID4VP endpoints wallets call: no auth, rate-limited per client address, form bodies, OAuth-shaped errors. */
export async function registerWalletRoutes(app: App, options: WalletRouteOptions): Promise<void> {
  await app.register(async (scope) => {
    const api = scope as unknown as App;
    await api.register(formbody);
    api.setErrorHandler(oauthErrorHandler);
    registerAuthorizationRequestRoutes(api, options.requests, options.rateLimit);
    registerAuthorizationResponseRoutes(api, options.responses, options.rateLimit);
  });
}
