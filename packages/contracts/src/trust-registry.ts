import { Type, type Static } from 'typebox';
import { OrganisationIdSchema, UuidSchema } from './ecosystem.js';

/**
 * The ecosystem's trust registry as the verifier reads it over NATS
 * (`ecosystem.v1.trust-list.get`, `ecosystem.v1.trust-list.changed`). The
 * HTTP shapes of the registry live beside these (`trusted-entities.ts`).
 */

/** A credential type an issuer entity may issue: an SD-JWT VC `vct` or an mdoc doctype. */
export const AllowedCredentialTypeSchema = Type.Union([
  Type.Object(
    { format: Type.Literal('dc+sd-jwt'), vct: Type.String({ minLength: 1, maxLength: 500 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { format: Type.Literal('mso_mdoc'), doctype: Type.String({ minLength: 1, maxLength: 500 }) },
    { additionalProperties: false },
  ),
]);
export type AllowedCredentialType = Static<typeof AllowedCredentialTypeSchema>;

export const TrustedEntityRoleSchema = Type.Union([Type.Literal('issuer'), Type.Literal('verifier')]);
export type TrustedEntityRole = Static<typeof TrustedEntityRoleSchema>;

/** `withdrawn` is final. */
export const TrustedEntityStatusSchema = Type.Union([
  Type.Literal('active'),
  Type.Literal('suspended'),
  Type.Literal('withdrawn'),
]);
export type TrustedEntityStatus = Static<typeof TrustedEntityStatusSchema>;

/** Whom an ecosystem's intent-based sessions trust: the organisation's anchors (default) or the ecosystem's list only. */
export const TrustPolicySchema = Type.Union([Type.Literal('organisation'), Type.Literal('ecosystem')]);
export type TrustPolicy = Static<typeof TrustPolicySchema>;

/** `ca`: chains under it are trusted; `leaf`: this exact certificate is (matched by fingerprint). From basicConstraints. */
export const CertificateKindSchema = Type.Union([Type.Literal('ca'), Type.Literal('leaf')]);
export type CertificateKind = Static<typeof CertificateKindSchema>;

/** A current (not retired) certificate of an entity. Identifiers are lowercase hex without separators. */
export const TrustListCertificateSchema = Type.Object({
  id: Type.String(),
  /** SHA-256 of the DER. */
  fingerprint: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  kind: CertificateKindSchema,
  /** Subject key identifier; always present for a CA. */
  ski: Type.Union([Type.String(), Type.Null()]),
  /** Authority key identifier (keyIdentifier), when the certificate has one. */
  aki: Type.Union([Type.String(), Type.Null()]),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  pem: Type.String(),
});
export type TrustListCertificate = Static<typeof TrustListCertificateSchema>;

export const TrustListEntitySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: TrustedEntityRoleSchema,
  orgId: Type.Union([OrganisationIdSchema, Type.Null()]),
  status: TrustedEntityStatusSchema,
  /** Empty for verifier entities. */
  allowedCredentialTypes: Type.Array(AllowedCredentialTypeSchema),
  certificates: Type.Array(TrustListCertificateSchema),
});
export type TrustListEntity = Static<typeof TrustListEntitySchema>;

/**
 * `ecosystem.v1.trust-list.get` request. `knownSequence`: the sequence the
 * caller already holds (the reply then leaves `entities` out when nothing
 * changed). `orgId`: when given, the organisation must be the lead or an
 * ACTIVE member (else 403 NOT_A_MEMBER) — a direct session that names the ecosystem.
 */
export const TrustListGetRequestSchema = Type.Object(
  {
    ecosystemId: UuidSchema,
    knownSequence: Type.Optional(Type.Integer({ minimum: 0 })),
    orgId: Type.Optional(OrganisationIdSchema),
  },
  { additionalProperties: false },
);
export type TrustListGetRequest = Static<typeof TrustListGetRequestSchema>;

/**
 * The list as of `sequence` (incremented by every change of the registry).
 * Not to be used after `nextUpdate`. `entities` holds every entity of the
 * ecosystem (any status, current certificates only); absent when the request's
 * `knownSequence` equals `sequence`.
 */
export const TrustListSnapshotSchema = Type.Object({
  ecosystemId: Type.String(),
  sequence: Type.Integer({ minimum: 0 }),
  nextUpdate: Type.String({ format: 'date-time' }),
  entities: Type.Optional(Type.Array(TrustListEntitySchema)),
});
export type TrustListSnapshot = Static<typeof TrustListSnapshotSchema>;

/** `ecosystem.v1.trust-list.changed`: published after a registry change is committed. */
export const TrustListChangedEventSchema = Type.Object({
  ecosystemId: Type.String(),
  sequence: Type.Integer({ minimum: 0 }),
});
export type TrustListChangedEvent = Static<typeof TrustListChangedEventSchema>;
