import { Type, type Static } from 'typebox';
import { PendingCertificateSigningRequestSchema } from './relying-party-identity.js';

// The organisation's request-signing certificates (VERIFIER.md, certificates).

export const CertificateKeyTypeSchema = Type.Union([Type.Literal('P256'), Type.Literal('ED25519')]);
export type CertificateKeyType = Static<typeof CertificateKeyTypeSchema>;

/**
 * `PUT certificates/{P256|ED25519}`: a chain with its key, or — after `POST …/csr` — the chain
 * alone, whose leaf must certify the pending key (400 CERTIFICATE_KEY_MISMATCH otherwise).
 */
export const ImportCertificateBodySchema = Type.Object(
  {
    certificateChainPem: Type.String({ minLength: 1, maxLength: 65536, description: 'PEM certificates, leaf first' }),
    privateKeyPem: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16384,
        description: 'PKCS#8 PEM private key of the leaf; absent: the leaf certifies the key of the pending CSR',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ImportCertificateBody = Static<typeof ImportCertificateBodySchema>;

/** The request-signing certificate of an organisation and key type (never the private key). */
export const SigningCertificateSchema = Type.Object({
  keyType: CertificateKeyTypeSchema,
  /** `platform`: a leaf of the platform CA; `imported`: a chain imported with its key; `csr`: a chain for a key made here (`POST …/csr`). */
  source: Type.Union([Type.Literal('platform'), Type.Literal('imported'), Type.Literal('csr')]),
  subject: Type.String(),
  /** The leaf's organizationIdentifier (else serialNumber): the identifier a registration certificate binds to (WRPAC). */
  organizationIdentifier: Type.Optional(Type.String()),
  issuer: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  sanDnsNames: Type.Array(Type.String()),
  fingerprint: Type.String({ description: 'SHA-256 of the leaf DER, lowercase hex' }),
  x509Hash: Type.String({ description: 'base64url SHA-256 of the leaf DER: the x509_hash client_id value' }),
  certificateChainPem: Type.String({ description: 'the chain sent as x5c, leaf first, without the trust anchor' }),
});
export type SigningCertificate = Static<typeof SigningCertificateSchema>;

/** `GET certificates`: per key type, the signer in force and the certificate signing request waiting for its chain. */
export const SigningCertificatesEntrySchema = Type.Object({
  keyType: CertificateKeyTypeSchema,
  signer: SigningCertificateSchema,
  pendingCsr: Type.Union([PendingCertificateSigningRequestSchema, Type.Null()]),
});
export type SigningCertificatesEntry = Static<typeof SigningCertificatesEntrySchema>;
