import { Type } from 'typebox';
import { CertificateKeyTypeSchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import type { Clock } from '@tessera/service-kit';
import { certificateRequestBodyOf } from '../domain/certificate-request-form.js';
import { can } from '../domain/signed-in-user.js';
import { SigningCertificatesPage } from '../presenters/pages/signing-certificates-page.js';
import { findPendingCsr, type FindPendingCsrDeps } from '../use-cases/find-pending-csr.js';
import { importReaderCertificate, type ImportReaderCertificateDeps } from '../use-cases/import-reader-certificate.js';
import {
  importSigningCertificate,
  type ImportSigningCertificateDeps,
} from '../use-cases/import-signing-certificate.js';
import { loadSigningCertificates, type LoadSigningCertificatesDeps } from '../use-cases/load-signing-certificates.js';
import {
  requestAccessCertificate,
  type RequestAccessCertificateDeps,
} from '../use-cases/request-access-certificate.js';
import { answerPage, sendProblemPage } from './page-errors.js';
import { answerForm, formValues, OrgParams, orgPath, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type SigningCertificateRouteDeps = LoadSigningCertificatesDeps &
  ImportSigningCertificateDeps &
  RequestAccessCertificateDeps &
  FindPendingCsrDeps &
  ImportReaderCertificateDeps & { clock: Clock };

const KeyTypeParams = Type.Object({ ...OrgParams.properties, keyType: CertificateKeyTypeSchema });
const ChainPem = Type.String({ maxLength: 70000 });
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/**
 * The organisation's request signing (issue 25): the signer in force per key type, a
 * certificate signing request (made by the verifier, whose key never leaves it), its PEM to
 * download, the CA's chain uploaded without a key, the import of a chain with its key, and
 * the mdoc reader chain.
 */
export function registerSigningCertificateRoutes(app: App, deps: SigningCertificateRouteDeps): void {
  app.get(
    '/orgs/:orgId/certificates',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const session = sessionOf(request);
      const view = await loadSigningCertificates(deps, { token: session.accessToken, orgId });
      return answerPage(request, reply, view, { area: 'organisation', orgId, item: 'certificates' }, (value, context) =>
        SigningCertificatesPage({
          context,
          orgId,
          view: value,
          manageIdentity: can.manageIdentity(session.user.orgRoles[orgId] ?? []),
          now: deps.clock(),
        }),
      );
    },
  );

  // The import of a chain with its key, and — without a key — the CA's chain for the pending CSR.
  app.post(
    '/orgs/:orgId/certificates/:keyType',
    {
      schema: pageSchema({
        params: KeyTypeParams,
        body: Type.Object({
          certificateChainPem: ChainPem,
          privateKeyPem: Type.Optional(Type.String({ maxLength: 20000 })),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, keyType } = request.params;
      const { certificateChainPem, privateKeyPem } = request.body;
      const withKey = privateKeyPem !== undefined;
      const result = await importSigningCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        keyType,
        certificateChainPem,
        ...(withKey ? { privateKeyPem } : {}),
      });
      // The key is never sent back into a refused form (formValues leaves it out).
      return answerForm(request, reply, result, {
        back: orgPath(orgId, `/certificates#${withKey ? 'import' : 'pending'}-${keyType}`),
        success: (certificate) =>
          withKey
            ? `Requests are now signed with your chain (${certificate.subject}).`
            : `Requests are now signed with the key of your certificate signing request (${certificate.subject}).`,
        next: orgPath(orgId, `/certificates#signer-${keyType}`),
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/orgs/:orgId/certificates/:keyType/csr',
    {
      schema: pageSchema({
        params: KeyTypeParams,
        body: Type.Object({
          commonName: Type.String({ maxLength: 500 }),
          organizationName: Type.String({ maxLength: 500 }),
          organizationIdentifier: Text(500),
          countryName: Type.String({ maxLength: 50 }),
          sanDns: Text(5000),
          sanUri: Text(25000),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, keyType } = request.params;
      const result = await requestAccessCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        keyType,
        body: certificateRequestBodyOf(request.body),
      });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, `/certificates#csr-${keyType}`),
        success:
          'The certificate signing request is made: hand it to your CA, then upload the chain it issues. Until then requests are signed as before.',
        next: orgPath(orgId, `/certificates#pending-${keyType}`),
        values: formValues(request.body),
      });
    },
  );

  app.get(
    '/orgs/:orgId/certificates/:keyType/csr.pem',
    { schema: pageSchema({ params: KeyTypeParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, keyType } = request.params;
      const pending = await findPendingCsr(deps, { token: sessionOf(request).accessToken, orgId, keyType });
      if (!pending.ok) return sendProblemPage(request, reply, pending.problem);
      return reply
        .type('application/pkcs10; charset=utf-8')
        .header('content-disposition', `attachment; filename="${orgId}-${keyType.toLowerCase()}.csr.pem"`)
        .header('cache-control', 'no-store')
        .send(pending.value.csrPem);
    },
  );

  app.post(
    '/orgs/:orgId/certificates/reader',
    {
      schema: pageSchema({ params: OrgParams, body: Type.Object({ certificateChainPem: ChainPem }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const result = await importReaderCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        certificateChainPem: request.body.certificateChainPem,
      });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, '/certificates#reader-import'),
        next: orgPath(orgId, '/certificates#reader'),
        success: (certificate) => `mdoc requests now carry your reader chain (${certificate.subject}).`,
        values: formValues(request.body),
      });
    },
  );
}
