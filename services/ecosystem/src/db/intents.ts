// Intents of one ecosystem. Every query names the ecosystem or is followed by an
// authorisation check on the intent's ecosystem.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { IntentBody } from '@tessera/contracts';
import type { PageWindow } from '@tessera/service-kit';
import { ecosystems, intentNotices, intents, intentTemplates, type IntentRow } from './schema.js';
import { isForeignKeyViolation, returnUniqueConflicts, type Conflict, type EcosystemDb } from './types.js';

const NAME_INDEXES = { intents_ecosystem_name_lower_uq: 'name' } as const;

/** A new intent, or `{ conflict: 'name' }` when the ecosystem has one of that name (ignoring case). */
export async function insertIntent(
  db: EcosystemDb,
  input: { ecosystemId: string; body: IntentBody; userId: string },
): Promise<IntentRow | Conflict<'name'>> {
  return returnUniqueConflicts(async () => {
    const [row] = await db
      .insert(intents)
      .values({
        id: randomUUID(),
        ecosystemId: input.ecosystemId,
        name: input.body.name,
        description: input.body.description,
        createdBy: input.userId,
        lastChangedBy: input.userId,
      })
      .returning();
    return row!;
  }, NAME_INDEXES);
}

/** Adds `delta` to the ecosystem's kept number of intents (`intent_count`), in the transaction that adds or removes one. */
export async function changeIntentCount(db: EcosystemDb, ecosystemId: string, delta: 1 | -1): Promise<void> {
  const intentCount = delta === 1 ? sql`${ecosystems.intentCount} + 1` : sql`${ecosystems.intentCount} - 1`;
  await db.update(ecosystems).set({ intentCount }).where(eq(ecosystems.id, ecosystemId));
}

export async function findIntent(db: EcosystemDb, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, id));
  return row;
}

/** The intent of an ecosystem by name, ignoring case (intent resolution). */
export async function findIntentByName(
  db: EcosystemDb,
  ecosystemId: string,
  name: string,
): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(intents)
    .where(and(eq(intents.ecosystemId, ecosystemId), sql`lower(${intents.name}) = lower(${name})`));
  return row;
}

/** A page of an ecosystem's intents, newest first; the total comes from the ecosystem's counter, not count(*). */
export async function listIntents(
  db: EcosystemDb,
  ecosystemId: string,
  window: PageWindow,
): Promise<{ rows: IntentRow[]; total: number }> {
  const [[totals], rows] = await Promise.all([
    db.select({ total: ecosystems.intentCount }).from(ecosystems).where(eq(ecosystems.id, ecosystemId)),
    db
      .select()
      .from(intents)
      .where(eq(intents.ecosystemId, ecosystemId))
      .orderBy(desc(intents.createdAt), desc(intents.id))
      .limit(window.pageSize)
      .offset(window.offset),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

/** The updated intent, undefined when it is gone, or `{ conflict: 'name' }` when the new name is taken. */
export async function updateIntent(
  db: EcosystemDb,
  input: { id: string; body: IntentBody; userId: string },
): Promise<IntentRow | undefined | Conflict<'name'>> {
  const updated = await returnUniqueConflicts(async () => {
    const [row] = await db
      .update(intents)
      .set({
        name: input.body.name,
        description: input.body.description,
        lastChangedBy: input.userId,
        lastChangedAt: sql`now()`,
      })
      .where(eq(intents.id, input.id))
      .returning();
    return { row };
  }, NAME_INDEXES);
  return 'conflict' in updated ? updated : updated.row;
}

/** How many intent templates and notices still refer to the intent. */
export async function countIntentDependents(db: EcosystemDb, intentId: string): Promise<number> {
  const [templates] = await db
    .select({ n: count() })
    .from(intentTemplates)
    .where(eq(intentTemplates.intentId, intentId));
  const [notices] = await db.select({ n: count() }).from(intentNotices).where(eq(intentNotices.intentId, intentId));
  return (templates?.n ?? 0) + (notices?.n ?? 0);
}

/**
 * The deleted intent, undefined when it is gone, or `{ conflict: 'in-use' }` when a
 * foreign key still refers to it (a template added since the caller counted).
 */
export async function deleteIntent(db: EcosystemDb, id: string): Promise<IntentRow | undefined | Conflict<'in-use'>> {
  try {
    const [row] = await db.delete(intents).where(eq(intents.id, id)).returning();
    return row;
  } catch (error) {
    if (isForeignKeyViolation(error)) return { conflict: 'in-use' };
    throw error;
  }
}
