import { Type, type Static } from 'typebox';

/**
 * The request protocols of the browser's Digital Credentials API a session can
 * offer (`navigator.credentials.get({ digital: { requests: [{ protocol, data }] } })`):
 * the three OpenID4VP 1.0 request types of its Appendix A and ISO/IEC
 * 18013-7:2025 Annex C for mdoc.
 */
export const DC_API_PROTOCOLS = [
  'openid4vp-v1-unsigned',
  'openid4vp-v1-signed',
  'openid4vp-v1-multisigned',
  'org-iso-mdoc',
] as const;

export const DcApiProtocolSchema = Type.Union(
  [
    Type.Literal('openid4vp-v1-unsigned'),
    Type.Literal('openid4vp-v1-signed'),
    Type.Literal('openid4vp-v1-multisigned'),
    Type.Literal('org-iso-mdoc'),
  ],
  { description: 'A Digital Credentials API request protocol' },
);
export type DcApiProtocol = Static<typeof DcApiProtocolSchema>;

/**
 * `dcApiProtocols` of both create-session bodies: the protocols the page will
 * ask the browser with, in order of preference, each at most once. Only with
 * `responseMode` `dc_api` or `dc_api.jwt`; absent means `["openid4vp-v1-signed"]`.
 */
export const DcApiProtocolsSchema = Type.Array(DcApiProtocolSchema, {
  minItems: 1,
  maxItems: DC_API_PROTOCOLS.length,
  uniqueItems: true,
  description:
    'Digital Credentials API protocols to offer, in order of preference (dc_api modes only; default ["openid4vp-v1-signed"])',
});

/** A JWS in General JSON Serialization (RFC 7515 §7.2.1): one signature per signer over the same payload. */
export const GeneralJwsSchema = Type.Object({
  payload: Type.String(),
  signatures: Type.Array(Type.Object({ protected: Type.String(), signature: Type.String() }), { minItems: 1 }),
});
export type GeneralJws = Static<typeof GeneralJwsSchema>;

/** OpenID4VP 1.0 Appendix A.3.1: the request parameters themselves, without `client_id`. */
export const UnsignedDcApiRequestSchema = Type.Object({
  protocol: Type.Literal('openid4vp-v1-unsigned'),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'the request parameters as a JSON object' }),
});

/** OpenID4VP 1.0 Appendix A.3.2: the signed request object as a compact JWS. */
export const SignedDcApiRequestSchema = Type.Object({
  protocol: Type.Literal('openid4vp-v1-signed'),
  data: Type.Object({ request: Type.String({ description: 'the request object, a compact JWS' }) }),
});

/** OpenID4VP 1.0 Appendix A.3.2: one request, a signature per signer, each protected header with its `client_id`. */
export const MultiSignedDcApiRequestSchema = Type.Object({
  protocol: Type.Literal('openid4vp-v1-multisigned'),
  data: Type.Object({ request: GeneralJwsSchema }),
});

/** ISO/IEC 18013-7:2025 Annex C: a DeviceRequest and the EncryptionInfo the answer is sealed to, both base64url CBOR. */
export const IsoMdocDcApiRequestSchema = Type.Object({
  protocol: Type.Literal('org-iso-mdoc'),
  data: Type.Object({
    deviceRequest: Type.String({
      description: 'base64url CBOR DeviceRequest (version "1.0", a ReaderAuth per DocRequest)',
    }),
    encryptionInfo: Type.String({ description: 'base64url CBOR ["dcapi", { nonce, recipientPublicKey }]' }),
  }),
});

/** One entry of what the browser is handed (`digital.requests`): a protocol and its `data`. */
export const DcApiRequestSchema = Type.Union([
  UnsignedDcApiRequestSchema,
  SignedDcApiRequestSchema,
  MultiSignedDcApiRequestSchema,
  IsoMdocDcApiRequestSchema,
]);
export type DcApiRequest = Static<typeof DcApiRequestSchema>;

/**
 * `PUT certificates/READER`: the organisation's own mdoc reader-authentication
 * chain (PEM, leaf first) for its current P-256 request-signing key. No key: the
 * ReaderAuths of `org-iso-mdoc` requests are signed with that P-256 key.
 */
export const ImportReaderCertificateBodySchema = Type.Object(
  {
    certificateChainPem: Type.String({
      minLength: 1,
      maxLength: 65536,
      description:
        "PEM certificates, leaf first; the leaf certifies the organisation's P-256 key for mdoc reader authentication",
    }),
  },
  { additionalProperties: false },
);
export type ImportReaderCertificateBody = Static<typeof ImportReaderCertificateBodySchema>;

/** The certificate chain `org-iso-mdoc` ReaderAuths carry in their `x5chain` (never the key). */
export const ReaderCertificateSchema = Type.Object({
  source: Type.Union([Type.Literal('platform'), Type.Literal('imported')]),
  subject: Type.String(),
  issuer: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  sanDnsNames: Type.Array(Type.String()),
  extendedKeyUsages: Type.Array(Type.String(), {
    description: 'dotted OIDs; mdoc reader authentication is 1.0.18013.5.1.6',
  }),
  fingerprint: Type.String({ description: 'SHA-256 of the leaf DER, lowercase hex' }),
  certificateChainPem: Type.String({
    description: 'the x5chain of each ReaderAuth, leaf first, without the trust anchor',
  }),
});
export type ReaderCertificate = Static<typeof ReaderCertificateSchema>;
