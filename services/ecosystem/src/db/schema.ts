import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { EcosystemRole, InvitationStatus, InvitationType, MembershipStatus, TemplateRole } from '@tessera/contracts';

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
    uniqueIndex('invitations_pending_lead_email_uq').on(sql`lower(${t.email})`).where(sql`${t.type} = 'ecosystem' and ${t.status} = 'pending'`),
    // One member invitation row per organisation and ecosystem: a rejected one returns to pending.
    uniqueIndex('invitations_member_org_uq').on(t.ecosystemId, t.invitedOrg).where(sql`${t.type} = 'member'`),
    index('invitations_created_by_idx').on(t.createdBy, t.createdAt),
    index('invitations_invited_org_idx').on(t.invitedOrg, t.createdAt),
  ],
);

/** An organisation's place in an ecosystem; the lead has one too (role `Ecosystem Lead`). */
export const memberships = ecosystemSchema.table(
  'memberships',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id').notNull().references(() => ecosystems.id, { onDelete: 'restrict' }),
    orgId: text('org_id').notNull().references(() => organisations.id, { onDelete: 'restrict' }),
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
    uniqueIndex('memberships_one_lead_uq').on(t.ecosystemId).where(sql`${t.role} = 'Ecosystem Lead'`),
    index('memberships_org_idx').on(t.orgId),
  ],
);

export const intents = ecosystemSchema.table(
  'intents',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: uuid('ecosystem_id').notNull().references(() => ecosystems.id, { onDelete: 'restrict' }),
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
    intentId: uuid('intent_id').notNull().references(() => intents.id, { onDelete: 'restrict' }),
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
  intentId: uuid('intent_id').notNull().unique('intent_notices_intent_uq').references(() => intents.id, { onDelete: 'restrict' }),
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
    foreignKey({ name: 'intent_notice_versions_notice_fk', columns: [t.noticeId], foreignColumns: [intentNotices.id] }).onDelete('cascade'),
  ],
);

export type OrganisationRow = typeof organisations.$inferSelect;
export type EcosystemRow = typeof ecosystems.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type IntentRow = typeof intents.$inferSelect;
export type IntentTemplateRow = typeof intentTemplates.$inferSelect;
export type IntentNoticeRow = typeof intentNotices.$inferSelect;
export type IntentNoticeVersionRow = typeof intentNoticeVersions.$inferSelect;

export const schema = { organisations, ecosystems, invitations, memberships, intents, intentTemplates, intentNotices, intentNoticeVersions };
export type EcosystemDbSchema = typeof schema;
