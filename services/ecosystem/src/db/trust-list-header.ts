// What serving an ecosystem's signed list needs before its content: the sequence (to
// reuse a signed copy) and whether it is public. Scoped to one ecosystem.
import { eq } from 'drizzle-orm';
import { ecosystems } from './schema.js';
import type { EcosystemDb } from './types.js';

export interface TrustListHeader {
  sequence: number;
  public: boolean;
}

/** Undefined when there is no such ecosystem. */
export async function findTrustListHeader(db: EcosystemDb, ecosystemId: string): Promise<TrustListHeader | undefined> {
  const [row] = await db
    .select({ sequence: ecosystems.trustListSequence, public: ecosystems.trustListPublic })
    .from(ecosystems)
    .where(eq(ecosystems.id, ecosystemId));
  return row;
}
