// The ecosystem row as the lock and counter of its trust registry. Scoped by ecosystem id.
import { eq, sql } from 'drizzle-orm';
import { ecosystems } from './schema.js';
import type { EcosystemDb } from './types.js';

/**
 * Locks the ecosystem row for the rest of the transaction (FOR NO KEY UPDATE: rows
 * that reference the ecosystem can still be inserted by other writers). Every registry
 * change takes it first, so the ecosystem's changes run one after another and each
 * reads what the previous one committed. False when there is no such ecosystem.
 */
export async function lockTrustRegistry(tx: EcosystemDb, ecosystemId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: ecosystems.id })
    .from(ecosystems)
    .where(eq(ecosystems.id, ecosystemId))
    .for('no key update');
  return !!row;
}

/** Adds one to the ecosystem's trust-list sequence (under the registry lock) and answers the new value. */
export async function advanceTrustListSequence(tx: EcosystemDb, ecosystemId: string, at: Date): Promise<number> {
  const [row] = await tx
    .update(ecosystems)
    .set({ trustListSequence: sql`${ecosystems.trustListSequence} + 1`, trustListSequenceChangedAt: at })
    .where(eq(ecosystems.id, ecosystemId))
    .returning({ sequence: ecosystems.trustListSequence });
  return row!.sequence;
}
