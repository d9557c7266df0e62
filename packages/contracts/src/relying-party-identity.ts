import { Type, type Static } from 'typebox';

/**
 * Relying-party identity for EU wallets (issue 25): access certificates made from a
 * certificate signing request whose key never leaves the verifier (WRPAC, ETSI TS 119 411-8),
 * registration certificates per verifier (WRPRC, ETSI TS 119 475) sent as `verifier_info`
 * (OpenID4VP 1.0 §5.1), and the over-asking judgement of queries against what was registered.
 */

/**
 * The subject an organisation asks its access certificate to carry (ETSI EN 319 412-3 for a
 * legal person). The service checks each field and answers 400 VALIDATION_FAILED with a
 * JSON Pointer per problem (`/subject/countryName`, …).
 */
export const AccessCertificateSubjectSchema = Type.Object(
  {
    /** The name a wallet shows (trade or service name). */
    commonName: Type.String({ minLength: 1, maxLength: 200 }),
    /** The legal name. */
    organizationName: Type.String({ minLength: 1, maxLength: 200 }),
    /** ETSI EN 319 412-1 semantics identifier (`VATDE-123456789`, `LEIXG-…`, `NTRNL-…`); a registration certificate's `sub` must equal it. */
    organizationIdentifier: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** ISO 3166-1 alpha-2, upper case. */
    countryName: Type.String({ minLength: 1, maxLength: 10 }),
  },
  { additionalProperties: false },
);
export type AccessCertificateSubject = Static<typeof AccessCertificateSubjectSchema>;

/** `POST certificates/{P256|ED25519}/csr`. */
export const CreateCertificateSigningRequestBodySchema = Type.Object(
  {
    subject: AccessCertificateSubjectSchema,
    /** dNSName SANs (`x509_san_dns` needs the host of the service's public URL). */
    sanDns: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { minItems: 1, maxItems: 10 })),
    /** uniformResourceIdentifier SANs (ETSI TS 119 411-8: a contact such as the support page). */
    sanUri: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { minItems: 1, maxItems: 10 })),
  },
  { additionalProperties: false },
);
export type CreateCertificateSigningRequestBody = Static<typeof CreateCertificateSigningRequestBodySchema>;

/**
 * A certificate signing request waiting for its certificate: the key was made by the service
 * and stays there, sealed; the current signer stays in force until `PUT certificates/{keyType}`
 * brings a chain whose leaf certifies this key.
 */
export const PendingCertificateSigningRequestSchema = Type.Object({
  keyId: Type.String({ format: 'uuid' }),
  keyType: Type.Union([Type.Literal('P256'), Type.Literal('ED25519')]),
  /** PKCS#10 (RFC 2986), PEM: hand it to the CA. */
  csrPem: Type.String(),
  subject: AccessCertificateSubjectSchema,
  sanDns: Type.Optional(Type.Array(Type.String())),
  sanUri: Type.Optional(Type.Array(Type.String())),
  createdAt: Type.String({ format: 'date-time' }),
});
export type PendingCertificateSigningRequest = Static<typeof PendingCertificateSigningRequestSchema>;

/** `PUT verifier/{verifierId}/registration-certificate`: the certificate as the registrar issued it. */
export const PutRegistrationCertificateBodySchema = Type.Object(
  {
    registrationCertificate: Type.String({
      minLength: 1,
      maxLength: 65536,
      description: 'compact JWS, typ rc-wrp+jwt (ETSI TS 119 475 V1.2.1 or V1.1.1) or rc-rp+jwt',
    }),
  },
  { additionalProperties: false },
);
export type PutRegistrationCertificateBody = Static<typeof PutRegistrationCertificateBodySchema>;

/** A DCQL claims path as registered: keys, array indexes, `null` for any key or element. */
export const RegisteredClaimPathSchema = Type.Array(
  Type.Union([Type.String(), Type.Integer({ minimum: 0 }), Type.Null()]),
);

export const RegisteredCredentialSchema = Type.Object({
  format: Type.String(),
  vct: Type.Optional(Type.String()),
  doctype: Type.Optional(Type.String()),
  /** The claims registered; `"all"`: the certificate names none and its version reads that as every claim (V1.1.1). */
  claims: Type.Union([Type.Array(RegisteredClaimPathSchema), Type.Literal('all')]),
});

export const RegisteredIntendedUseSchema = Type.Object({
  id: Type.Optional(Type.String()),
  purpose: Type.Array(Type.Object({ lang: Type.String(), value: Type.String() })),
  credentials: Type.Array(RegisteredCredentialSchema),
});
export type RegisteredIntendedUseView = Static<typeof RegisteredIntendedUseSchema>;

/** `valid`; `expiring`: less than a day left; `expired`: no longer sent. */
export const RegistrationCertificateStatusSchema = Type.Union([
  Type.Literal('valid'),
  Type.Literal('expiring'),
  Type.Literal('expired'),
]);

/** A verifier's registration certificate as `GET`/`PUT`/`DELETE verifier/{verifierId}/registration-certificate` answer it. */
export const RegistrationCertificateSchema = Type.Object({
  verifierId: Type.String(),
  form: Type.Union([Type.Literal('ts119475-v1.2.1'), Type.Literal('ts119475-v1.1.1'), Type.Literal('rc-rp')]),
  registrar: Type.Object({
    name: Type.String({ description: "the signing certificate's organizationName (else commonName)" }),
    subject: Type.String({ description: "the signing certificate's subject DN" }),
    anchorSubject: Type.String({ description: 'the registrar anchor the chain validated to' }),
  }),
  relyingParty: Type.Object({
    identifier: Type.String(),
    name: Type.Optional(Type.String()),
    legalName: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
  }),
  intermediary: Type.Optional(Type.Object({ identifier: Type.String(), name: Type.Optional(Type.String()) })),
  intendedUses: Type.Array(RegisteredIntendedUseSchema),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  status: RegistrationCertificateStatusSchema,
  /** Whether the P-256 access certificate in force still carries the identifier the certificate is bound to. */
  boundToAccessCertificate: Type.Boolean(),
  registrationCertificate: Type.String({ description: 'the certificate as uploaded (sent as verifier_info data)' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type RegistrationCertificate = Static<typeof RegistrationCertificateSchema>;

/** What a verifier does with a query asking for more than it registered: refuse it (400 OVER_ASKING) or create the session and list the paths. */
export const OverAskingPolicySchema = Type.Union([Type.Literal('refuse'), Type.Literal('warn')]);
export type OverAskingPolicy = Static<typeof OverAskingPolicySchema>;

/** One part of a DCQL query no registered intended use covers (a wallet flags it). */
export const OverAskingPathSchema = Type.Object({
  /** JSON Pointer of the part: in the create body (`/dcql/…`) or the template (`/templateJson/dcql/query/…`). */
  path: Type.String(),
  credentialQueryId: Type.String(),
  kind: Type.Union([Type.Literal('credential_type'), Type.Literal('claim')]),
  message: Type.String(),
});
export type OverAskingPath = Static<typeof OverAskingPathSchema>;
