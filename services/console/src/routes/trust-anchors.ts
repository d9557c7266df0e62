import { Type } from 'typebox';
import { TrustAnchorPurposeSchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import type { Clock } from '@tessera/service-kit';
import { TrustAnchorsPage } from '../presenters/pages/trust-anchors-page.js';
import { addTrustAnchor, type AddTrustAnchorDeps } from '../use-cases/add-trust-anchor.js';
import { loadTrustAnchors, type LoadTrustAnchorsDeps } from '../use-cases/load-trust-anchors.js';
import { removeTrustAnchor, type RemoveTrustAnchorDeps } from '../use-cases/remove-trust-anchor.js';
import { registerOrgListPage } from './org-list-page.js';
import {
  answerForm,
  formValues,
  OrgParams,
  problemFlash,
  orgPath,
  pageSchema,
  requireSignIn,
  sessionOf,
} from './web-session.js';

export type TrustAnchorRouteDeps = LoadTrustAnchorsDeps & AddTrustAnchorDeps & RemoveTrustAnchorDeps & { clock: Clock };

/** The organisation's trust anchors. */
export function registerTrustAnchorRoutes(app: App, deps: TrustAnchorRouteDeps): void {
  registerOrgListPage(
    app,
    'trust-anchors',
    (input) => loadTrustAnchors(deps, input),
    ({ context, orgId, value }) => TrustAnchorsPage({ context, orgId, anchors: value, now: deps.clock() }),
  );

  app.post(
    '/orgs/:orgId/trust-anchors',
    {
      schema: pageSchema({
        params: OrgParams,
        body: Type.Object({
          anchor: Type.String({ maxLength: 70000 }),
          label: Type.Optional(Type.String({ maxLength: 500 })),
          credentialTypes: Type.Optional(Type.String({ maxLength: 60000 })),
          purpose: Type.Optional(TrustAnchorPurposeSchema),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const anchor = request.body.anchor.trim();
      const label = request.body.label?.trim();
      const credentialTypes = (request.body.credentialTypes ?? '')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
      const common = { ...(label ? { label } : {}), ...(credentialTypes.length > 0 ? { credentialTypes } : {}) };
      // The default purpose (issuer) is left out, as an API client would; a DID can only be an issuer anchor.
      const registrar = request.body.purpose === 'registrar';
      if (registrar && anchor.startsWith('did:')) {
        const problem = 'A registrar anchor is a CA certificate (PEM), not a DID.';
        sessionOf(request).setFlash(
          problemFlash(
            { code: 'VALIDATION_FAILED', message: problem, details: [{ path: '/purpose', message: problem }] },
            formValues(request.body),
          ),
        );
        return reply.redirect(orgPath(orgId, '/trust-anchors'), 303);
      }
      const purpose = registrar ? { purpose: 'registrar' as const } : {};
      const result = await addTrustAnchor(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        body: anchor.startsWith('did:')
          ? { did: anchor, ...common }
          : { certificatePem: anchor, ...common, ...purpose },
      });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, '/trust-anchors'),
        success: (added) => `${added.label ?? added.subject} is trusted.`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/orgs/:orgId/trust-anchors/:anchorId/delete',
    {
      schema: pageSchema({
        params: Type.Object({ ...OrgParams.properties, anchorId: Type.String({ minLength: 1, maxLength: 100 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, anchorId } = request.params;
      const result = await removeTrustAnchor(deps, { token: sessionOf(request).accessToken, orgId, anchorId });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, '/trust-anchors'),
        success: (removed) => `${removed.label ?? removed.subject} is no longer trusted.`,
      });
    },
  );
}
