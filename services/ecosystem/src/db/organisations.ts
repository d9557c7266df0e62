// Organisation directory (a projection of the platform's organisations). Not tenant-scoped:
// callers are authorised for the organisation before these run.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { organisations, type OrganisationRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface UpsertOrganisationInput {
  id: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string;
}

/** Inserts or updates one organisation; `created` tells which (`xmax = 0` only on a fresh insert). */
export async function upsertOrganisation(
  db: EcosystemDb,
  input: UpsertOrganisationInput,
): Promise<{ row: OrganisationRow; created: boolean }> {
  const [result] = await db
    .insert(organisations)
    .values(input)
    .onConflictDoUpdate({
      target: organisations.id,
      set: {
        name: input.name,
        ownerUserId: input.ownerUserId,
        ownerEmail: input.ownerEmail,
        lastChangedAt: sql`now()`,
      },
    })
    .returning({ ...getTableColumns(organisations), created: sql<boolean>`(xmax = 0)` });
  const { created, ...row } = result!;
  return { row, created };
}

export async function findOrganisation(db: EcosystemDb, id: string): Promise<OrganisationRow | undefined> {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, id));
  return row;
}
