import type { FastifyRequest } from 'fastify';
import { createAuthHook, principalOf, requireOrgRole, type App, type TokenVerifier } from '@tessera/service-kit';

/** Roles that may manage an organisation's verifier resources (ARCHITECTURE.md). */
export const VERIFIER_ROLES = ['owner', 'admin', 'verifier'] as const;

/** Roles that may change who the organisation is to wallets: its access certificate's key (CSR) and its verifiers' registration certificates. */
export const IDENTITY_MANAGER_ROLES = ['owner', 'admin'] as const;

/**
 * Route `onRequest` hook of the owner/admin routes: after the management scope's token and
 * role check, before validation (403 first, as there).
 */
export async function requireIdentityManager(request: FastifyRequest): Promise<void> {
  requireOrgRole(principalOf(request), (request.params as { orgId: string }).orgId, IDENTITY_MANAGER_ROLES);
}

/**
 * `/v1/orgs/{orgId}/oid4vp/...`: a bearer token first (401), then a role in
 * the organisation named in the path (403), before the request is validated.
 * `routes` register each resource's routes in that scope.
 */
export async function registerManagementRoutes(
  app: App,
  options: { verifyToken: TokenVerifier; routes: Array<(api: App) => void> },
): Promise<void> {
  await app.register(
    async (scope) => {
      const api = scope as unknown as App;
      api.addHook('onRequest', createAuthHook(options.verifyToken));
      // Synchronous (no promise per request); a refusal thrown here is answered as from an async hook.
      api.addHook('onRequest', (request, _reply, done) => {
        const { orgId } = request.params as { orgId?: string };
        requireOrgRole(principalOf(request), orgId ?? '', VERIFIER_ROLES);
        done();
      });
      for (const register of options.routes) register(api);
    },
    { prefix: '/v1/orgs/:orgId/oid4vp' },
  );
}
