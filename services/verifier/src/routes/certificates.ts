import { Type } from 'typebox';
import { CertificateKeyTypeSchema, ImportCertificateBodySchema, SigningCertificateSchema } from '@tessera/contracts';
import { envelope, type App } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { describeSigningCertificate } from '../keys/describe-certificate.js';
import { importOrgCertificate } from '../keys/import-certificate.js';
import { loadSigningMaterial } from '../keys/signing-material.js';
import { envelopeOf, errorResponses, OrgParamsSchema } from './common.js';

const CertificateParamsSchema = Type.Object({ ...OrgParamsSchema.properties, keyType: CertificateKeyTypeSchema });
const tags = ['certificates'];

export function registerCertificateRoutes(app: App, ctx: VerifierContext): void {
  app.put(
    '/certificates/:keyType',
    {
      schema: {
        tags,
        summary: "Import the organisation's own request-signing chain and key",
        params: CertificateParamsSchema,
        body: ImportCertificateBodySchema,
        response: { 200: envelopeOf(SigningCertificateSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const certificate = await importOrgCertificate({
        db: ctx.db,
        keyEncryptionKey: ctx.keyEncryptionKey,
        orgId: request.params.orgId,
        keyType: request.params.keyType,
        certificateChainPem: request.body.certificateChainPem,
        privateKeyPem: request.body.privateKeyPem,
        now: ctx.now(),
      });
      return envelope(200, 'Signing certificate imported.', certificate);
    },
  );

  app.get(
    '/certificates/:keyType',
    {
      schema: {
        tags,
        summary: "The organisation's request-signing certificate chain (created on first use)",
        params: CertificateParamsSchema,
        response: { 200: envelopeOf(SigningCertificateSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { orgId, keyType } = request.params;
      const material = await loadSigningMaterial({ db: ctx.db, keyEncryptionKey: ctx.keyEncryptionKey, ca: ctx.ca, orgId, keyType, host: ctx.host, now: ctx.now() });
      return envelope(200, 'Signing certificate.', describeSigningCertificate({ keyType, source: material.source, chain: material.chain }));
    },
  );
}
