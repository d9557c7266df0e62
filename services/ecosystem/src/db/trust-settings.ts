// The lead's settings of an ecosystem's trust registry. Scoped by ecosystem id; callers
// are authorised as its lead first. They change neither the list's content nor its sequence.
import { eq, sql } from 'drizzle-orm';
import type { TrustPolicy } from '@tessera/contracts';
import { ecosystems, type EcosystemRow } from './schema.js';
import type { EcosystemDb } from './types.js';

export async function setTrustPolicy(
  db: EcosystemDb,
  input: { ecosystemId: string; policy: TrustPolicy; userId: string },
): Promise<EcosystemRow | undefined> {
  const [row] = await db
    .update(ecosystems)
    .set({ trustPolicy: input.policy, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
    .where(eq(ecosystems.id, input.ecosystemId))
    .returning();
  return row;
}

export async function setTrustListPublic(
  db: EcosystemDb,
  input: { ecosystemId: string; public: boolean; userId: string },
): Promise<EcosystemRow | undefined> {
  const [row] = await db
    .update(ecosystems)
    .set({ trustListPublic: input.public, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
    .where(eq(ecosystems.id, input.ecosystemId))
    .returning();
  return row;
}
