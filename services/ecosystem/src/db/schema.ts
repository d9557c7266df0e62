import { sql } from 'drizzle-orm';
import { rateLimitWindowsTable } from '@tessera/service-kit';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AllowedCredentialType,
  CertificateKind,
  EcosystemRole,
  InvitationStatus,
  InvitationType,
  MembershipStatus,
  TemplateRole,
  TrustedEntityChange,
  TrustedEntityRole,
  TrustedEntityStatus,
  TrustPolicy,
} from '@tessera/contracts';

/** The service's own Postgres schema: it can share a database with the other services. */
export const ecosystemSchema = pgSchema('ecosystem');

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const lastChangedAt = () => timestamp('last_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * Projection of the platform's organisations (ECOSYSTEM.md, Organisation directory):
 * filled by `platform.v1.organisation.upserted` and `PUT /v1/organisations/{orgId}`.
 */
export const organisations = ecosystemSchema.table('organisations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ownerUserId: text('owner_user_id').notNull(),
  ownerEmail: text('owner_email').notNull(),
  createdAt: createdAt(),
  lastChangedAt: lastChangedAt(),
});

export const ecosystems = ecosystemSchema.table(
  'ecosystems',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    tags: jsonb('tags').$type<string[] | null>(),
    autoEndorsement: boolean('auto_endorsement').notNull().default(false),
    logoUrl: text('logo_url'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastChangedBy: text('last_changed_by').notNull(),
    lastChangedAt: lastChangedAt(),
    /** Number of intents, kept in the transactions that add and remove them, so pages need no count(*). */
    intentCount: integer('intent_count').notNull().default(0),
    /**
     * The trust registry's sequence (ETSI LoTESequenceNumber): incremented by every
     * registry change, in the change's transaction. Its UPDATE is also the lock that
     * serialises the ecosystem's registry changes (README, Trust registry).
     */
    trustListSequence: integer('trust_list_sequence').notNull().default(0),
    /** When `trustListSequence` last changed; null until the first change (the ecosystem's creation counts then). */
    trustListSequenceChangedAt: timestamp('trust_list_sequence_changed_at', { withTimezone: true, mode: 'date' }),
    trustPolicy: text('trust_policy').$type<TrustPolicy>().notNull().default('organisation'),
    /** The lead let the signed list be read without a token. */
    trustListPublic: boolean('trust_list_public').notNull().default(false),
  },
  // Names are unique on the platform, case-insensitive; the index makes it hold under races.
  (t) => [uniqueIndex('ecosystems_name_lower_uq').on(sql`lower(${t.name})`)],
);

/**
 * Lead invitations (`type = 'ecosystem'`, sent by a platform admin to an e-mail) and
 * member invitations (`type = 'member'`, sent by a lead to an organisation).
 */
export const invitations = ecosystemSchema.table(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    type: text('type').$type<InvitationType>().notNull(),
    email: text('email').notNull(),
    status: text('status').$type<InvitationStatus>().notNull(),
    userId: text('user_id'),
    ecosystemId: uuid('ecosystem_id').references(() => ecosystems.id, { onDelete: 'restrict' }),
    invitedOrg: text('invited_org').references(() => organisations.id, { onDelete: 'restrict' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastChangedBy: text('last_changed_by').notNull(),
    lastChangedAt: lastChangedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // One pending lead invitation per e-mail address.
    uniqueIndex('invitations_pending_lead_email_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.type} = 'ecosystem' and ${t.status} = 'pending'`),
    // One member invitation row per organisation and ecosystem: a rejected one returns to pending.
    uniqueIndex('invitations_member_org_uq')
      .on(t.ecosystemId, t.invitedOrg)
      .where(sql`${t.type} = 'member'`),
    index('invitations_created_by_idx').on(t.createdBy, t.createdAt),
    index('invitations_invited_org_idx').on(t.invitedOrg, t.createdAt),
  ],
);

/** An organisation's place in an ecosystem; the lead has one too (role `Ecosystem Lead`). */
export const memberships = ecosystemSchema.table(
  'memberships',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'restrict' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    role: text('role').$type<EcosystemRole>().notNull(),
    status: text('status').$type<MembershipStatus>().notNull(),
    userId: text('user_id').notNull(),
    userEmail: text('user_email'),
    createdAt: createdAt(),
    lastChangedAt: lastChangedAt(),
  },
  (t) => [
    // Two simultaneous accepts of one invitation cannot create two memberships.
    uniqueIndex('memberships_ecosystem_org_uq').on(t.ecosystemId, t.orgId),
    uniqueIndex('memberships_one_lead_uq')
      .on(t.ecosystemId)
      .where(sql`${t.role} = 'Ecosystem Lead'`),
    index('memberships_org_idx').on(t.orgId),
  ],
);

export const intents = ecosystemSchema.table(
  'intents',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastChangedBy: text('last_changed_by').notNull(),
    lastChangedAt: lastChangedAt(),
  },
  (t) => [
    uniqueIndex('intents_ecosystem_name_lower_uq').on(t.ecosystemId, sql`lower(${t.name})`),
    // Pages of an ecosystem's intents, newest first, read in (backward) index order.
    index('intents_ecosystem_created_idx').on(t.ecosystemId, t.createdAt, t.id),
  ],
);

/** A credential template's role in an intent; `orgId` null = ecosystem-wide, else an organisation's override. */
export const intentTemplates = ecosystemSchema.table(
  'intent_templates',
  {
    id: uuid('id').primaryKey(),
    intentId: uuid('intent_id')
      .notNull()
      .references(() => intents.id, { onDelete: 'restrict' }),
    templateId: text('template_id').notNull(),
    role: text('role').$type<TemplateRole>().notNull(),
    description: text('description'),
    orgId: text('org_id').references(() => organisations.id, { onDelete: 'restrict' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastChangedBy: text('last_changed_by').notNull(),
    lastChangedAt: lastChangedAt(),
  },
  // coalesce: a null orgId (the ecosystem-wide mapping) must collide with another null.
  (t) => [uniqueIndex('intent_templates_scope_uq').on(t.intentId, t.role, sql`coalesce(${t.orgId}, '')`)],
);

/** At most one notice per intent; `currentVersion` is bumped under the row lock for each new version. */
export const intentNotices = ecosystemSchema.table('intent_notices', {
  id: uuid('id').primaryKey(),
  intentId: uuid('intent_id')
    .notNull()
    .unique('intent_notices_intent_uq')
    .references(() => intents.id, { onDelete: 'restrict' }),
  currentVersion: integer('current_version').notNull(),
  createdAt: createdAt(),
});

/** Every version of a notice is kept: acceptances given to an earlier version stay traceable. */
export const intentNoticeVersions = ecosystemSchema.table(
  'intent_notice_versions',
  {
    noticeId: uuid('notice_id').notNull(),
    version: integer('version').notNull(),
    body: jsonb('body').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'intent_notice_versions_pk', columns: [t.noticeId, t.version] }),
    foreignKey({
      name: 'intent_notice_versions_notice_fk',
      columns: [t.noticeId],
      foreignColumns: [intentNotices.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Issuers and verifiers the ecosystem's lead trusts (README, Trust registry). Never
 * deleted: a withdrawn entity stays, with its certificates, as the list's history.
 */
export const trustedEntities = ecosystemSchema.table(
  'trusted_entities',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    role: text('role').$type<TrustedEntityRole>().notNull(),
    /** The member organisation the entity is, or null for an outside party. */
    orgId: text('org_id').references(() => organisations.id, { onDelete: 'restrict' }),
    informationUri: text('information_uri'),
    /** Empty for verifiers. */
    allowedCredentialTypes: jsonb('allowed_credential_types').$type<AllowedCredentialType[]>().notNull(),
    status: text('status').$type<TrustedEntityStatus>().notNull(),
    /** Why the current status was set; null while the entity has its initial status. */
    statusReason: text('status_reason'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // Pages and the list read an ecosystem's entities in creation order.
  (t) => [index('trusted_entities_ecosystem_created_idx').on(t.ecosystemId, t.createdAt, t.id)],
);

/**
 * Certificates of trusted entities. Retiring one sets `retiredAt`; the row stays, so
 * the history can name it. Identifiers are lowercase hex without separators.
 */
export const trustedEntityCertificates = ecosystemSchema.table(
  'trusted_entity_certificates',
  {
    id: uuid('id').primaryKey(),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => trustedEntities.id, { onDelete: 'restrict' }),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'restrict' }),
    pem: text('pem').notNull(),
    /** SHA-256 of the DER. */
    fingerprint: text('fingerprint').notNull(),
    subject: text('subject').notNull(),
    ski: text('ski'),
    aki: text('aki'),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }).notNull(),
    kind: text('kind').$type<CertificateKind>().notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull(),
    addedBy: text('added_by').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
    retiredBy: text('retired_by'),
  },
  (t) => [
    // A certificate is current at most once per entity; a retired one may be added again.
    uniqueIndex('trusted_entity_certificates_current_uq')
      .on(t.entityId, t.fingerprint)
      .where(sql`${t.retiredAt} is null`),
    // The use cases look a fingerprint up among the ecosystem's current certificates (duplicates across entities).
    index('trusted_entity_certificates_ecosystem_fingerprint_idx')
      .on(t.ecosystemId, t.fingerprint)
      .where(sql`${t.retiredAt} is null`),
    index('trusted_entity_certificates_entity_idx').on(t.entityId, t.addedAt),
  ],
);

/**
 * Append-only log of every registry change (a trigger of the migration refuses UPDATE
 * and DELETE). Each row carries the ecosystem's `trust_list_sequence` its change
 * produced, unique per ecosystem: the log and the sequence advance together.
 */
export const trustedEntityHistory = ecosystemSchema.table(
  'trusted_entity_history',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'restrict' }),
    entityId: uuid('entity_id')
      .notNull()
      .references(() => trustedEntities.id, { onDelete: 'restrict' }),
    sequence: integer('sequence').notNull(),
    change: text('change').$type<TrustedEntityChange>().notNull(),
    from: jsonb('from'),
    to: jsonb('to'),
    reason: text('reason'),
    /** The token subject of the lead's user who made the change. */
    actor: text('actor').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('trusted_entity_history_ecosystem_sequence_uq').on(t.ecosystemId, t.sequence),
    index('trusted_entity_history_entity_idx').on(t.entityId, t.sequence),
  ],
);

/**
 * Per-address rate-limit counts of the public trust-list routes, shared by every replica
 * (the kit's `SharedRateLimitCounts`): one aligned window per hashed route and client key.
 */
export const rateLimitWindows = rateLimitWindowsTable(ecosystemSchema);

export type OrganisationRow = typeof organisations.$inferSelect;
export type EcosystemRow = typeof ecosystems.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type IntentRow = typeof intents.$inferSelect;
export type IntentTemplateRow = typeof intentTemplates.$inferSelect;
export type IntentNoticeRow = typeof intentNotices.$inferSelect;
export type IntentNoticeVersionRow = typeof intentNoticeVersions.$inferSelect;
export type TrustedEntityRow = typeof trustedEntities.$inferSelect;
export type TrustedEntityCertificateRow = typeof trustedEntityCertificates.$inferSelect;
export type TrustedEntityHistoryRow = typeof trustedEntityHistory.$inferSelect;

export const schema = {
  organisations,
  ecosystems,
  invitations,
  memberships,
  intents,
  intentTemplates,
  intentNotices,
  intentNoticeVersions,
  trustedEntities,
  trustedEntityCertificates,
  trustedEntityHistory,
  rateLimitWindows,
};
export type EcosystemDbSchema = typeof schema;
