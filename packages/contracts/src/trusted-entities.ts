import { Type, type Static } from 'typebox';
import { OrganisationIdSchema } from './ecosystem.js';
import {
  AllowedCredentialTypeSchema,
  CertificateKindSchema,
  TrustedEntityRoleSchema,
  TrustedEntityStatusSchema,
  TrustPolicySchema,
} from './trust-registry.js';

/**
 * HTTP shapes of the ecosystem's trust registry (`/v1/ecosystem/{ecosystemId}/trusted-entities`,
 * `.../trust-policy`, `.../trust-list/visibility`). The NATS shapes the verifier
 * reads are in `trust-registry.ts`; the rules are in the ecosystem README (Trust registry).
 */

const Timestamp = Type.String({ format: 'date-time' });

/** Largest PEM accepted for one certificate (a certificate is a few KiB; this bounds parsing work). */
export const MAX_CERTIFICATE_PEM_LENGTH = 16 * 1024;
/** Most certificates one request may add (creation or `POST .../certificates`). */
export const MAX_CERTIFICATES_PER_REQUEST = 20;
/** Most credential types one issuer entity may be allowed. */
export const MAX_ALLOWED_CREDENTIAL_TYPES = 50;

/** One certificate to trust: a PEM holding exactly one `CERTIFICATE` block (a CA, or a leaf trusted exactly). */
export const CertificateUploadSchema = Type.Object(
  { pem: Type.String({ minLength: 1, maxLength: MAX_CERTIFICATE_PEM_LENGTH }) },
  { additionalProperties: false },
);
export type CertificateUpload = Static<typeof CertificateUploadSchema>;

const CertificateUploads = Type.Array(CertificateUploadSchema, { minItems: 1, maxItems: MAX_CERTIFICATES_PER_REQUEST });
const EntityName = Type.String({ minLength: 1, maxLength: 200 });
const InformationUri = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
const AllowedCredentialTypes = Type.Array(AllowedCredentialTypeSchema, { maxItems: MAX_ALLOWED_CREDENTIAL_TYPES });

/**
 * `POST /v1/ecosystem/{ecosystemId}/trusted-entities`. `allowedCredentialTypes` is
 * required (non-empty) for issuers and absent or empty for verifiers; `orgId` names a
 * member organisation (the lead or an ACTIVE member), absent for an outside party.
 */
export const TrustedEntityCreateBodySchema = Type.Object(
  {
    name: EntityName,
    role: TrustedEntityRoleSchema,
    orgId: Type.Optional(OrganisationIdSchema),
    informationUri: Type.Optional(InformationUri),
    allowedCredentialTypes: Type.Optional(AllowedCredentialTypes),
    certificates: CertificateUploads,
  },
  { additionalProperties: false },
);
export type TrustedEntityCreateBody = Static<typeof TrustedEntityCreateBodySchema>;

/** `PATCH .../trusted-entities/{entityId}`: the fields given change; `informationUri: null` removes it. */
export const TrustedEntityPatchBodySchema = Type.Object(
  {
    name: Type.Optional(EntityName),
    informationUri: Type.Optional(Type.Union([InformationUri, Type.Null()])),
    allowedCredentialTypes: Type.Optional(AllowedCredentialTypes),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type TrustedEntityPatchBody = Static<typeof TrustedEntityPatchBodySchema>;

/** `POST .../trusted-entities/{entityId}/certificates`. */
export const TrustedEntityCertificatesBodySchema = Type.Object(
  { certificates: CertificateUploads },
  { additionalProperties: false },
);
export type TrustedEntityCertificatesBody = Static<typeof TrustedEntityCertificatesBodySchema>;

/** `POST .../trusted-entities/{entityId}/status`. `withdrawn` is final. */
export const TrustedEntityStatusBodySchema = Type.Object(
  { status: TrustedEntityStatusSchema, reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export type TrustedEntityStatusBody = Static<typeof TrustedEntityStatusBodySchema>;

/** Filters of `GET .../trusted-entities` (with paging): entities allowed a `vct` or doctype (exact match). */
export const TrustedEntityFilterSchema = Type.Object({
  role: Type.Optional(TrustedEntityRoleSchema),
  status: Type.Optional(TrustedEntityStatusSchema),
  vct: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  doctype: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});
export type TrustedEntityFilter = Static<typeof TrustedEntityFilterSchema>;

/** A current certificate of an entity. Identifiers are lowercase hex without separators. */
export const TrustedEntityCertificateSchema = Type.Object({
  id: Type.String(),
  /** SHA-256 of the DER. */
  fingerprint: Type.String(),
  /** RFC 4514 string. */
  subject: Type.String(),
  ski: Type.Union([Type.String(), Type.Null()]),
  aki: Type.Union([Type.String(), Type.Null()]),
  notBefore: Timestamp,
  notAfter: Timestamp,
  kind: CertificateKindSchema,
  pem: Type.String(),
  addedAt: Timestamp,
});
export type TrustedEntityCertificate = Static<typeof TrustedEntityCertificateSchema>;

export const TrustedEntitySchema = Type.Object({
  id: Type.String(),
  ecosystemId: Type.String(),
  name: Type.String(),
  role: TrustedEntityRoleSchema,
  orgId: Type.Union([Type.String(), Type.Null()]),
  informationUri: Type.Union([Type.String(), Type.Null()]),
  allowedCredentialTypes: Type.Array(AllowedCredentialTypeSchema),
  status: TrustedEntityStatusSchema,
  /** The reason given with the last status change; null while the entity keeps the status it was created with. */
  statusReason: Type.Union([Type.String(), Type.Null()]),
  statusChangedAt: Timestamp,
  /** Current certificates only; retired ones are in the history. */
  certificates: Type.Array(TrustedEntityCertificateSchema),
  createdBy: Type.String(),
  createDateTime: Timestamp,
  lastChangedDateTime: Timestamp,
});
export type TrustedEntity = Static<typeof TrustedEntitySchema>;

export const TrustedEntityChangeSchema = Type.Union([
  Type.Literal('created'),
  Type.Literal('updated'),
  Type.Literal('certificate-added'),
  Type.Literal('certificate-retired'),
  Type.Literal('status-changed'),
]);
export type TrustedEntityChange = Static<typeof TrustedEntityChangeSchema>;

/**
 * One entry of an entity's history. `sequence` is the ecosystem's trust-list sequence
 * the change produced. `from`/`to` by change (README, Trust registry): created — `to`
 * the entity as created; updated — the changed fields before and after; certificate-added —
 * `to.certificates`; certificate-retired — `from.certificates`; status-changed — `{ status }` both.
 */
export const TrustedEntityHistoryEntrySchema = Type.Object({
  id: Type.String(),
  sequence: Type.Integer(),
  change: TrustedEntityChangeSchema,
  from: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  to: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  /** The token subject of the user who made the change. */
  actor: Type.String(),
  at: Timestamp,
});
export type TrustedEntityHistoryEntry = Static<typeof TrustedEntityHistoryEntrySchema>;

/** `PUT /v1/ecosystem/{ecosystemId}/trust-policy`. */
export const TrustPolicyBodySchema = Type.Object({ policy: TrustPolicySchema }, { additionalProperties: false });
export type TrustPolicyBody = Static<typeof TrustPolicyBodySchema>;

export const EcosystemTrustPolicySchema = Type.Object({ ecosystemId: Type.String(), policy: TrustPolicySchema });
export type EcosystemTrustPolicy = Static<typeof EcosystemTrustPolicySchema>;

/** `PUT /v1/ecosystem/{ecosystemId}/trust-list/visibility`: `public: true` serves the signed list without a token. */
export const TrustListVisibilityBodySchema = Type.Object({ public: Type.Boolean() }, { additionalProperties: false });
export type TrustListVisibilityBody = Static<typeof TrustListVisibilityBodySchema>;

export const TrustListVisibilitySchema = Type.Object({ ecosystemId: Type.String(), public: Type.Boolean() });
export type TrustListVisibility = Static<typeof TrustListVisibilitySchema>;
