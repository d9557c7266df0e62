// Intents of one ecosystem. Every query names the ecosystem or is followed by an
// authorisation check on the intent's ecosystem.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { ErrorCode, type IntentBody } from '@tessera/contracts';
import { conflict, type PageWindow } from '@tessera/service-kit';
import { ecosystems, intentNotices, intents, intentTemplates, type IntentRow } from './schema.js';
import { isForeignKeyViolation, withConflicts, type EcoDb } from './db-types.js';

const nameTaken = (name: string) => () => conflict(ErrorCode.INTENT_NAME_TAKEN, `This ecosystem has an intent named "${name}" already (names ignore case).`);

export async function createIntent(db: EcoDb, input: { ecosystemId: string; body: IntentBody; userId: string }): Promise<IntentRow> {
  return withConflicts(
    async () => {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(intents)
          .values({ id: randomUUID(), ecosystemId: input.ecosystemId, name: input.body.name, description: input.body.description, createdBy: input.userId, lastChangedBy: input.userId })
          .returning();
        await tx.update(ecosystems).set({ intentCount: sql`${ecosystems.intentCount} + 1` }).where(eq(ecosystems.id, input.ecosystemId));
        return row!;
      });
    },
    { intents_ecosystem_name_lower_uq: nameTaken(input.body.name) },
  );
}

export async function findIntent(db: EcoDb, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, id));
  return row;
}

/** The intent of an ecosystem by name, ignoring case (intent resolution). */
export async function findIntentByName(db: EcoDb, ecosystemId: string, name: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(and(eq(intents.ecosystemId, ecosystemId), sql`lower(${intents.name}) = lower(${name})`));
  return row;
}

/** A page of an ecosystem's intents, newest first; the total comes from the ecosystem's counter, not count(*). */
export async function listIntents(db: EcoDb, ecosystemId: string, window: PageWindow): Promise<{ rows: IntentRow[]; total: number }> {
  const [[totals], rows] = await Promise.all([
    db.select({ total: ecosystems.intentCount }).from(ecosystems).where(eq(ecosystems.id, ecosystemId)),
    db.select().from(intents).where(eq(intents.ecosystemId, ecosystemId)).orderBy(desc(intents.createdAt), desc(intents.id)).limit(window.pageSize).offset(window.offset),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function updateIntent(db: EcoDb, input: { id: string; body: IntentBody; userId: string }): Promise<IntentRow | undefined> {
  return withConflicts(
    async () => {
      const [row] = await db
        .update(intents)
        .set({ name: input.body.name, description: input.body.description, lastChangedBy: input.userId, lastChangedAt: sql`now()` })
        .where(eq(intents.id, input.id))
        .returning();
      return row;
    },
    { intents_ecosystem_name_lower_uq: nameTaken(input.body.name) },
  );
}

/**
 * Deletes an intent that has no templates and no notice (409 IN_USE otherwise). The
 * foreign keys restrict too, so a template added meanwhile still cannot be orphaned.
 */
export async function deleteIntent(db: EcoDb, id: string): Promise<IntentRow | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const [templates] = await tx.select({ n: count() }).from(intentTemplates).where(eq(intentTemplates.intentId, id));
      const [notices] = await tx.select({ n: count() }).from(intentNotices).where(eq(intentNotices.intentId, id));
      if ((templates?.n ?? 0) > 0 || (notices?.n ?? 0) > 0) throw inUse();
      const [row] = await tx.delete(intents).where(eq(intents.id, id)).returning();
      if (row) await tx.update(ecosystems).set({ intentCount: sql`${ecosystems.intentCount} - 1` }).where(eq(ecosystems.id, row.ecosystemId));
      return row;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}

function inUse() {
  return conflict(ErrorCode.IN_USE, 'This intent still has intent templates or a notice: delete them first.');
}
