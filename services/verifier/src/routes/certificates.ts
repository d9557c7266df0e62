import { Type } from 'typebox';
import { CertificateKeyTypeSchema, ImportCertificateBodySchema, SigningCertificateSchema } from '@tessera/contracts';
import { envelope, routeSchema, type App } from '@tessera/service-kit';
import { toSigningCertificate } from '../presenters/signing-certificate.js';
import { getSigningCertificate, type GetSigningCertificateDeps } from '../use-cases/get-signing-certificate.js';
import { importCertificate, type ImportCertificateDeps } from '../use-cases/import-certificate.js';
import { envelopeOf, MANAGEMENT, OrgParamsSchema } from './common.js';

const CertificateParamsSchema = Type.Object({ ...OrgParamsSchema.properties, keyType: CertificateKeyTypeSchema });
const tags = ['certificates'];

export type CertificateRouteDeps = ImportCertificateDeps & GetSigningCertificateDeps;

export function registerCertificateRoutes(app: App, deps: CertificateRouteDeps): void {
  app.put(
    '/certificates/:keyType',
    {
      schema: routeSchema(
        { summary: "Import the organisation's own request-signing chain and key", tags, security: MANAGEMENT },
        {
          params: CertificateParamsSchema,
          body: ImportCertificateBodySchema,
          response: { 200: envelopeOf(SigningCertificateSchema) },
        },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Signing certificate imported.',
        toSigningCertificate(await importCertificate(deps, { ...request.params, ...request.body })),
      ),
  );

  app.get(
    '/certificates/:keyType',
    {
      schema: routeSchema(
        {
          summary: "The organisation's request-signing certificate chain (created on first use)",
          tags,
          security: MANAGEMENT,
        },
        { params: CertificateParamsSchema, response: { 200: envelopeOf(SigningCertificateSchema) } },
      ),
    },
    async (request) =>
      envelope(200, 'Signing certificate.', toSigningCertificate(await getSigningCertificate(deps, request.params))),
  );
}
