import { Type } from 'typebox';
import {
  CertificateKeyTypeSchema,
  CreateCertificateSigningRequestBodySchema,
  ImportCertificateBodySchema,
  PendingCertificateSigningRequestSchema,
  SigningCertificateSchema,
  SigningCertificatesEntrySchema,
} from '@tessera/contracts';
import { type App, envelope, envelopeOf, routeSchema } from '@tessera/service-kit';
import { toPendingCertificateSigningRequest } from '../presenters/pending-certificate-signing-request.js';
import { toSigningCertificate } from '../presenters/signing-certificate.js';
import { getSigningCertificate, type GetSigningCertificateDeps } from '../use-cases/get-signing-certificate.js';
import { importCertificate, type ImportCertificateDeps } from '../use-cases/import-certificate.js';
import { listSigningCertificates, type ListSigningCertificatesDeps } from '../use-cases/list-signing-certificates.js';
import {
  requestAccessCertificate,
  type RequestAccessCertificateDeps,
} from '../use-cases/request-access-certificate.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';
import { requireIdentityManager } from './management.js';

const CertificateParamsSchema = Type.Object({ ...OrgParamsSchema.properties, keyType: CertificateKeyTypeSchema });
const tags = ['certificates'];

export type CertificateRouteDeps = ImportCertificateDeps &
  GetSigningCertificateDeps &
  ListSigningCertificatesDeps &
  RequestAccessCertificateDeps;

export function registerCertificateRoutes(app: App, deps: CertificateRouteDeps): void {
  app.get(
    '/certificates',
    {
      schema: routeSchema(
        {
          summary: 'The request signers in force and the pending certificate signing requests, per key type',
          description:
            'One entry per key type (P256, ED25519): `signer`, the chain requests are signed with (a platform leaf is created on first use), and `pendingCsr`, the certificate signing request waiting for its chain (null when none).',
          tags,
          security: MANAGEMENT,
        },
        { params: OrgParamsSchema, response: { 200: envelopeOf(Type.Array(SigningCertificatesEntrySchema)) } },
      ),
    },
    async (request) => {
      const entries = await listSigningCertificates(deps, request.params);
      return envelope(
        200,
        'Signing certificates.',
        entries.map((entry) => ({
          keyType: entry.keyType,
          signer: toSigningCertificate(entry.signer),
          pendingCsr: entry.pending ? toPendingCertificateSigningRequest(entry.pending) : null,
        })),
      );
    },
  );

  app.post(
    '/certificates/:keyType/csr',
    {
      onRequest: requireIdentityManager,
      schema: routeSchema(
        {
          summary: 'Make a key and a certificate signing request for an access certificate (the key stays here)',
          description:
            'Owners and admins. A new key of the type is made and kept sealed (never exported); the answer is a PKCS#10 request (PEM) with the subject and SANs asked for, for the CA of a registrar. `PUT certificates/{keyType}` with the chain alone then puts the key in force; until then the current signer stays. A new request replaces a pending one of the same key type.',
          tags,
          security: MANAGEMENT,
          errors: [403],
        },
        {
          params: CertificateParamsSchema,
          body: CreateCertificateSigningRequestBodySchema,
          response: { 201: envelopeOf(PendingCertificateSigningRequestSchema) },
        },
      ),
    },
    async (request, reply) => {
      const { keyType, orgId } = request.params;
      const row = await requestAccessCertificate(deps, { orgId, keyType, body: request.body });
      return reply
        .code(201)
        .send(envelope(201, 'Certificate signing request created.', toPendingCertificateSigningRequest(row)));
    },
  );

  app.put(
    '/certificates/:keyType',
    {
      schema: routeSchema(
        {
          summary: "Import the organisation's own request-signing chain (with its key, or for the pending CSR's key)",
          description:
            '`{ certificateChainPem, privateKeyPem }` imports a chain and its key; `{ certificateChainPem }` alone completes a certificate signing request: the leaf must certify the pending key (400 CERTIFICATE_KEY_MISMATCH otherwise). Leaf first, not self-signed, with its issuer; a self-signed root at the end is kept out of x5c.',
          tags,
          security: MANAGEMENT,
        },
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
