import { createAuthHook, principalOf, requireOrgRole, type App, type TokenVerifier } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { registerCertificateRoutes } from './certificates.js';
import { registerPresentationRoutes } from './presentations.js';
import { registerResponseRoutes } from './responses.js';
import { registerSessionRoutes } from './sessions.js';
import { registerTemplateRoutes } from './templates.js';
import { registerTrustAnchorRoutes } from './trust-anchors.js';
import { registerVerifierRoutes } from './verifiers.js';

/** Roles that may manage an organisation's verifier resources (ARCHITECTURE.md). */
export const VERIFIER_ROLES = ['owner', 'admin', 'verifier'] as const;

/**
 * `/v1/orgs/{orgId}/oid4vp/...`: a bearer token first (401), then a role in
 * the organisation named in the path (403), before the request is validated.
 */
export async function registerManagementRoutes(app: App, options: { ctx: VerifierContext; verifyToken: TokenVerifier }): Promise<void> {
  await app.register(
    async (scope) => {
      const api = scope as unknown as App;
      api.addHook('onRequest', createAuthHook(options.verifyToken));
      api.addHook('onRequest', async (request) => {
        const { orgId } = request.params as { orgId?: string };
        requireOrgRole(principalOf(request), orgId ?? '', VERIFIER_ROLES);
      });
      registerVerifierRoutes(api, options.ctx);
      registerTemplateRoutes(api, options.ctx);
      registerPresentationRoutes(api, options.ctx);
      registerSessionRoutes(api, options.ctx);
      registerCertificateRoutes(api, options.ctx);
      registerTrustAnchorRoutes(api, options.ctx);
      registerResponseRoutes(api, options.ctx);
    },
    { prefix: '/v1/orgs/:orgId/oid4vp' },
  );
}
