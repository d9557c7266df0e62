import { ImportReaderCertificateBodySchema, ReaderCertificateSchema } from '@tessera/contracts';
import { type App, envelope, envelopeOf, routeSchema } from '@tessera/service-kit';
import { toReaderCertificate } from '../presenters/reader-certificate.js';
import { getReaderCertificate, type GetReaderCertificateDeps } from '../use-cases/get-reader-certificate.js';
import { importReaderCertificate, type ImportReaderCertificateDeps } from '../use-cases/import-reader-certificate.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['certificates'];

export type ReaderCertificateRouteDeps = ImportReaderCertificateDeps & GetReaderCertificateDeps;

// A static path: it takes precedence over `certificates/{keyType}` (P256, ED25519).
export function registerReaderCertificateRoutes(app: App, deps: ReaderCertificateRouteDeps): void {
  app.put(
    '/certificates/READER',
    {
      schema: routeSchema(
        {
          summary: "Import the organisation's own mdoc reader-authentication chain for its P-256 key (org-iso-mdoc)",
          tags,
          security: MANAGEMENT,
        },
        {
          params: OrgParamsSchema,
          body: ImportReaderCertificateBodySchema,
          response: { 200: envelopeOf(ReaderCertificateSchema) },
        },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Reader certificate imported.',
        toReaderCertificate(await importReaderCertificate(deps, { ...request.params, ...request.body })),
      ),
  );

  app.get(
    '/certificates/READER',
    {
      schema: routeSchema(
        {
          summary:
            "The organisation's mdoc reader-authentication chain, carried by org-iso-mdoc ReaderAuths (issued by the platform CA on first use)",
          tags,
          security: MANAGEMENT,
        },
        { params: OrgParamsSchema, response: { 200: envelopeOf(ReaderCertificateSchema) } },
      ),
    },
    async (request) =>
      envelope(200, 'Reader certificate.', toReaderCertificate(await getReaderCertificate(deps, request.params))),
  );
}
