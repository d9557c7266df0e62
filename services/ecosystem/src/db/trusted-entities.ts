// Trusted entities of one ecosystem. Every query names the ecosystem: an entity id of
// another ecosystem is not found.
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type {
  AllowedCredentialType,
  TrustedEntityFilter,
  TrustedEntityRole,
  TrustedEntityStatus,
} from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { trustedEntities, type TrustedEntityRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface InsertTrustedEntityInput {
  id: string;
  ecosystemId: string;
  name: string;
  role: TrustedEntityRole;
  orgId: string | null;
  informationUri: string | null;
  allowedCredentialTypes: AllowedCredentialType[];
  userId: string;
  at: Date;
}

/** A new entity, `active` from `at`. */
export async function insertTrustedEntity(db: EcosystemDb, input: InsertTrustedEntityInput): Promise<TrustedEntityRow> {
  const [row] = await db
    .insert(trustedEntities)
    .values({
      id: input.id,
      ecosystemId: input.ecosystemId,
      name: input.name,
      role: input.role,
      orgId: input.orgId,
      informationUri: input.informationUri,
      allowedCredentialTypes: input.allowedCredentialTypes,
      status: 'active',
      statusReason: null,
      statusChangedAt: input.at,
      createdBy: input.userId,
      createdAt: input.at,
      updatedAt: input.at,
    })
    .returning();
  return row!;
}

export async function findTrustedEntity(
  db: EcosystemDb,
  ecosystemId: string,
  entityId: string,
): Promise<TrustedEntityRow | undefined> {
  const [row] = await db
    .select()
    .from(trustedEntities)
    .where(and(eq(trustedEntities.ecosystemId, ecosystemId), eq(trustedEntities.id, entityId)));
  return row;
}

/** A page of the ecosystem's entities matching `filter`, oldest first (the list's order). */
export async function listTrustedEntities(
  db: EcosystemDb,
  ecosystemId: string,
  filter: TrustedEntityFilter,
  window: PageWindow,
): Promise<{ rows: TrustedEntityRow[]; total: number }> {
  const conditions: SQL[] = [eq(trustedEntities.ecosystemId, ecosystemId)];
  if (filter.role) conditions.push(eq(trustedEntities.role, filter.role));
  if (filter.status) conditions.push(eq(trustedEntities.status, filter.status));
  // jsonb containment: an element of the allowed types with this format and vct/doctype.
  if (filter.vct)
    conditions.push(
      sql`${trustedEntities.allowedCredentialTypes} @> ${JSON.stringify([{ format: 'dc+sd-jwt', vct: filter.vct }])}::jsonb`,
    );
  if (filter.doctype)
    conditions.push(
      sql`${trustedEntities.allowedCredentialTypes} @> ${JSON.stringify([{ format: 'mso_mdoc', doctype: filter.doctype }])}::jsonb`,
    );
  const where = and(...conditions);
  const [[totals], rows] = await Promise.all([
    db.select({ total: count() }).from(trustedEntities).where(where),
    db
      .select()
      .from(trustedEntities)
      .where(where)
      .orderBy(asc(trustedEntities.createdAt), asc(trustedEntities.id))
      .limit(window.pageSize)
      .offset(window.offset),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export interface TrustedEntityFields {
  name?: string;
  informationUri?: string | null;
  allowedCredentialTypes?: AllowedCredentialType[];
  status?: TrustedEntityStatus;
  statusReason?: string;
  statusChangedAt?: Date;
}

/** Sets the given fields and `updated_at`; the caller holds the registry lock. */
export async function updateTrustedEntity(
  db: EcosystemDb,
  ecosystemId: string,
  entityId: string,
  set: TrustedEntityFields,
  at: Date,
): Promise<TrustedEntityRow> {
  const [row] = await db
    .update(trustedEntities)
    .set({ ...set, updatedAt: at })
    .where(and(eq(trustedEntities.ecosystemId, ecosystemId), eq(trustedEntities.id, entityId)))
    .returning();
  return row!;
}
