// Organisations' data keys (schema.ts `data_keys`), wrapped by KEY_ENCRYPTION_KEY.
// Read once per organisation and replica (use-cases/steps/data-key-ring.ts caches
// the unwrapped key), so none of these is on the hot path after the first use.
import { eq } from 'drizzle-orm';
import { dataKeys, type DataKeyRow } from './schema.js';
import type { VerifierDb } from './types.js';

export async function findDataKey(db: VerifierDb, params: { orgId: string }): Promise<DataKeyRow | undefined> {
  const [row] = await db.select().from(dataKeys).where(eq(dataKeys.orgId, params.orgId));
  return row;
}

/**
 * Stores the organisation's first data key unless one exists, then reads back
 * the one stored: replicas creating it together all use the same key.
 */
export async function insertDataKeyIfAbsent(
  db: VerifierDb,
  params: { orgId: string; wrappedKey: string; now: Date },
): Promise<DataKeyRow> {
  await db
    .insert(dataKeys)
    .values({ orgId: params.orgId, wrappedKey: params.wrappedKey, createdAt: params.now, updatedAt: params.now })
    .onConflictDoNothing();
  const stored = await findDataKey(db, params);
  if (!stored) throw new Error(`data key of ${params.orgId} could not be stored`);
  return stored;
}
