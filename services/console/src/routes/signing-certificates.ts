import { Type } from 'typebox';
import { CertificateKeyTypeSchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import type { Clock } from '@tessera/service-kit';
import { SigningCertificatesPage } from '../presenters/pages/signing-certificates-page.js';
import {
  importSigningCertificate,
  type ImportSigningCertificateDeps,
} from '../use-cases/import-signing-certificate.js';
import { loadSigningCertificates, type LoadSigningCertificatesDeps } from '../use-cases/load-signing-certificates.js';
import { answerPage } from './page-errors.js';
import { answerForm, OrgParams, orgPath, pageContext, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type SigningCertificateRouteDeps = LoadSigningCertificatesDeps & ImportSigningCertificateDeps & { clock: Clock };

/** The organisation's request-signing certificates: the signer in force and the import of its own chain. */
export function registerSigningCertificateRoutes(app: App, deps: SigningCertificateRouteDeps): void {
  app.get(
    '/orgs/:orgId/certificates',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const view = await loadSigningCertificates(deps, { token: sessionOf(request).accessToken, orgId });
      return answerPage(request, reply, view, (value) =>
        SigningCertificatesPage({
          context: pageContext(request, reply, { area: 'organisation', orgId, item: 'certificates' }),
          orgId,
          view: value,
          now: deps.clock(),
        }),
      );
    },
  );

  app.post(
    '/orgs/:orgId/certificates/:keyType',
    {
      schema: pageSchema({
        params: Type.Object({ ...OrgParams.properties, keyType: CertificateKeyTypeSchema }),
        body: Type.Object({
          certificateChainPem: Type.String({ maxLength: 70000 }),
          privateKeyPem: Type.String({ maxLength: 20000 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, keyType } = request.params;
      const result = await importSigningCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        keyType,
        certificateChainPem: request.body.certificateChainPem,
        privateKeyPem: request.body.privateKeyPem,
      });
      // The key is never sent back into a refused form.
      return answerForm(request, reply, result, {
        back: orgPath(orgId, `/certificates#signer-${keyType}`),
        success: (certificate) => `Requests are now signed with your chain (${certificate.subject}).`,
      });
    },
  );
}
