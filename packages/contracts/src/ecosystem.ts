import { Type, type Static } from 'typebox';

/**
 * HTTP shapes of the ecosystem service (`../spec/ecosystem-api.md`, ECOSYSTEM.md),
 * shared so that clients such as the verifier read the same definitions.
 */

/**
 * A canonical UUID. The pattern matters: the `uuid` format alone also admits
 * `urn:uuid:` prefixes, which a Postgres `uuid` column rejects.
 */
export const UuidSchema = Type.String({
  format: 'uuid',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

/** Organisation ids belong to the platform's identity provider: opaque, short, safe strings. */
export const OrganisationIdSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' });

export const InvitationStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('accepted'),
  Type.Literal('rejected'),
]);
export type InvitationStatus = Static<typeof InvitationStatusSchema>;

export const InvitationTypeSchema = Type.Union([Type.Literal('ecosystem'), Type.Literal('member')]);
export type InvitationType = Static<typeof InvitationTypeSchema>;

export const EcosystemRoleSchema = Type.Union([Type.Literal('Ecosystem Lead'), Type.Literal('Ecosystem Member')]);
export type EcosystemRole = Static<typeof EcosystemRoleSchema>;

export const MembershipStatusSchema = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]);
export type MembershipStatus = Static<typeof MembershipStatusSchema>;

export const TemplateRoleSchema = Type.Union([Type.Literal('issuer'), Type.Literal('verifier')]);
export type TemplateRole = Static<typeof TemplateRoleSchema>;

const Timestamp = Type.String({ format: 'date-time' });

// ---- Organisation directory ----

export const OrganisationUpsertBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type OrganisationUpsertBody = Static<typeof OrganisationUpsertBodySchema>;

export const OrganisationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  ownerUserId: Type.String(),
  ownerEmail: Type.String(),
  createDateTime: Timestamp,
  lastChangedDateTime: Timestamp,
});
export type Organisation = Static<typeof OrganisationSchema>;

// ---- Ecosystems ----

export const LeadInvitationBodySchema = Type.Object(
  { email: Type.String({ format: 'email', minLength: 3, maxLength: 320 }) },
  { additionalProperties: false },
);
export type LeadInvitationBody = Static<typeof LeadInvitationBodySchema>;

export const EcosystemCreateBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 50 }),
    description: Type.String({ maxLength: 255 }),
    tags: Type.Optional(
      Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 }), Type.Null()]),
    ),
    logoUrl: Type.Optional(
      Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }), Type.Null()]),
    ),
    autoEndorsement: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type EcosystemCreateBody = Static<typeof EcosystemCreateBodySchema>;

/** The seed's Ecosystem shape (also answered, with the invitation id, when a lead invitation is created). */
export const EcosystemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  tags: Type.Union([Type.Array(Type.String()), Type.Null()]),
  autoEndorsement: Type.Boolean(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.String(),
  createDateTime: Timestamp,
});
export type Ecosystem = Static<typeof EcosystemSchema>;

export const EcosystemListEntrySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  memberCount: Type.Integer(),
  role: EcosystemRoleSchema,
  leadOrg: Type.Object({ id: Type.String(), name: Type.String() }),
  createDateTime: Timestamp,
});
export type EcosystemListEntry = Static<typeof EcosystemListEntrySchema>;

export const EcosystemMemberSchema = Type.Object({
  id: Type.String(),
  role: EcosystemRoleSchema,
  status: MembershipStatusSchema,
  createDateTime: Timestamp,
  ecosystem: Type.Object({ id: Type.String(), name: Type.String() }),
  organisation: Type.Object({ id: Type.String(), name: Type.String() }),
  user: Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
});
export type EcosystemMember = Static<typeof EcosystemMemberSchema>;

/** An organisation that joined an ecosystem (`GET /v1/ecosystem/get-ecosystem-orgs`). */
export const EcosystemOrganisationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: EcosystemRoleSchema,
  joinedDateTime: Timestamp,
});
export type EcosystemOrganisation = Static<typeof EcosystemOrganisationSchema>;

export const DashboardSummarySchema = Type.Object({
  ecosystem: Type.Integer(),
  invitations: Type.Integer(),
  activeOrgs: Type.Integer(),
});
export type DashboardSummary = Static<typeof DashboardSummarySchema>;

export const EcosystemStatusSchema = Type.Object({ enabled: Type.Boolean() });
export type EcosystemStatus = Static<typeof EcosystemStatusSchema>;

// ---- Invitations ----

export const InvitationSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  status: InvitationStatusSchema,
  userId: Type.Union([Type.String(), Type.Null()]),
  type: InvitationTypeSchema,
  ecosystemId: Type.Union([Type.String(), Type.Null()]),
  invitedOrg: Type.Union([Type.String(), Type.Null()]),
  createDateTime: Timestamp,
  lastChangedDateTime: Timestamp,
  createdBy: Type.String(),
  lastChangedBy: Type.String(),
  deletedAt: Type.Union([Timestamp, Type.Null()]),
  ecosystem: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), createDateTime: Timestamp }),
    Type.Null(),
  ]),
  organisation: Type.Union([Type.Object({ name: Type.String() }), Type.Null()]),
});
export type Invitation = Static<typeof InvitationSchema>;

export const MemberInvitationBodySchema = Type.Object(
  { orgId: OrganisationIdSchema, ecosystemId: UuidSchema },
  { additionalProperties: false },
);
export type MemberInvitationBody = Static<typeof MemberInvitationBodySchema>;

export const InvitationDecisionBodySchema = Type.Object(
  {
    status: Type.Union([Type.Literal('accepted'), Type.Literal('rejected')]),
    ecosystemId: UuidSchema,
    orgId: Type.Optional(OrganisationIdSchema),
  },
  { additionalProperties: false },
);
export type InvitationDecisionBody = Static<typeof InvitationDecisionBodySchema>;

// ---- Intents ----

export const IntentBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), description: Type.String({ maxLength: 500 }) },
  { additionalProperties: false },
);
export type IntentBody = Static<typeof IntentBodySchema>;

export const IntentSchema = Type.Object({
  id: Type.String(),
  ecosystemId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  createDateTime: Timestamp,
  lastChangedDateTime: Timestamp,
  createdBy: Type.String(),
  lastChangedBy: Type.String(),
});
export type Intent = Static<typeof IntentSchema>;

export const IntentTemplateCreateBodySchema = Type.Object(
  {
    templateId: Type.String({ minLength: 1, maxLength: 200 }),
    role: TemplateRoleSchema,
    description: Type.Optional(Type.String({ maxLength: 500 })),
    orgId: Type.Optional(OrganisationIdSchema),
  },
  { additionalProperties: false },
);
export type IntentTemplateCreateBody = Static<typeof IntentTemplateCreateBodySchema>;

export const IntentTemplateUpdateBodySchema = Type.Object(
  { role: TemplateRoleSchema, description: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);
export type IntentTemplateUpdateBody = Static<typeof IntentTemplateUpdateBodySchema>;

export const IntentTemplateSchema = Type.Object({
  id: Type.String(),
  intentId: Type.String(),
  templateId: Type.String(),
  role: TemplateRoleSchema,
  description: Type.Union([Type.String(), Type.Null()]),
  orgId: Type.Union([Type.String(), Type.Null()]),
  createDateTime: Timestamp,
  createdBy: Type.String(),
  lastChangedDateTime: Timestamp,
  lastChangedBy: Type.String(),
});
export type IntentTemplate = Static<typeof IntentTemplateSchema>;
