// Intent templates. Every query names the intent they belong to, so a template id of
// another intent reads as unknown.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { TemplateRole } from '@tessera/contracts';
import { intentTemplates, type IntentTemplateRow } from './schema.js';
import { returnUniqueConflicts, type Conflict, type EcosystemDb } from './types.js';

/** One mapping per intent, role and scope (ecosystem-wide, or one organisation). */
const SCOPE_INDEXES = { intent_templates_scope_uq: 'scope' } as const;

export interface InsertIntentTemplateInput {
  intentId: string;
  templateId: string;
  role: TemplateRole;
  description: string | null;
  orgId: string | null;
  userId: string;
}

/** A new mapping, or `{ conflict: 'scope' }` when the intent has one for that role and scope. */
export async function insertIntentTemplate(
  db: EcosystemDb,
  input: InsertIntentTemplateInput,
): Promise<IntentTemplateRow | Conflict<'scope'>> {
  return returnUniqueConflicts(async () => {
    const { userId, ...values } = input;
    const [row] = await db
      .insert(intentTemplates)
      .values({ id: randomUUID(), ...values, createdBy: userId, lastChangedBy: userId })
      .returning();
    return row!;
  }, SCOPE_INDEXES);
}

export async function listIntentTemplates(db: EcosystemDb, intentId: string): Promise<IntentTemplateRow[]> {
  return db
    .select()
    .from(intentTemplates)
    .where(eq(intentTemplates.intentId, intentId))
    .orderBy(asc(intentTemplates.createdAt), asc(intentTemplates.id));
}

export async function findIntentTemplate(
  db: EcosystemDb,
  intentId: string,
  id: string,
): Promise<IntentTemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(intentTemplates)
    .where(and(eq(intentTemplates.intentId, intentId), eq(intentTemplates.id, id)));
  return row;
}

export interface UpdateIntentTemplateInput {
  intentId: string;
  id: string;
  role: TemplateRole;
  /** Absent keeps the description. */
  description: string | null | undefined;
  userId: string;
}

/** The updated mapping, undefined when it is gone, or `{ conflict: 'scope' }` when the new role clashes. */
export async function updateIntentTemplate(
  db: EcosystemDb,
  input: UpdateIntentTemplateInput,
): Promise<IntentTemplateRow | undefined | Conflict<'scope'>> {
  const updated = await returnUniqueConflicts(async () => {
    const [row] = await db
      .update(intentTemplates)
      .set({
        role: input.role,
        ...(input.description !== undefined ? { description: input.description } : {}),
        lastChangedBy: input.userId,
        lastChangedAt: sql`now()`,
      })
      .where(and(eq(intentTemplates.intentId, input.intentId), eq(intentTemplates.id, input.id)))
      .returning();
    return { row };
  }, SCOPE_INDEXES);
  return 'conflict' in updated ? updated : updated.row;
}

export async function deleteIntentTemplate(
  db: EcosystemDb,
  intentId: string,
  id: string,
): Promise<IntentTemplateRow | undefined> {
  const [row] = await db
    .delete(intentTemplates)
    .where(and(eq(intentTemplates.intentId, intentId), eq(intentTemplates.id, id)))
    .returning();
  return row;
}

/** The mappings that can answer a resolution for `orgId`: its override and the ecosystem-wide one. */
export async function findMappingsFor(db: EcosystemDb, intentId: string, orgId: string): Promise<IntentTemplateRow[]> {
  return db
    .select()
    .from(intentTemplates)
    .where(
      and(eq(intentTemplates.intentId, intentId), or(isNull(intentTemplates.orgId), eq(intentTemplates.orgId, orgId))),
    );
}
