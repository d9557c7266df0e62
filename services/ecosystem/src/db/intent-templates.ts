// Intent templates. Every query names the intent they belong to, so a template id of
// another intent reads as unknown.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { ErrorCode, type TemplateRole } from '@tessera/contracts';
import { conflict } from '@tessera/service-kit';
import { intentTemplates, type IntentTemplateRow } from './schema.js';
import { withConflicts, type EcoDb } from './db-types.js';

const templateExists = () => () =>
  conflict(ErrorCode.INTENT_TEMPLATE_EXISTS, 'This intent has a template for that role and scope already (one ecosystem-wide, one per organisation override).');

export interface CreateIntentTemplateInput {
  intentId: string;
  templateId: string;
  role: TemplateRole;
  description: string | null;
  orgId: string | null;
  userId: string;
}

export async function createIntentTemplate(db: EcoDb, input: CreateIntentTemplateInput): Promise<IntentTemplateRow> {
  return withConflicts(
    async () => {
      const { userId, ...values } = input;
      const [row] = await db
        .insert(intentTemplates)
        .values({ id: randomUUID(), ...values, createdBy: userId, lastChangedBy: userId })
        .returning();
      return row!;
    },
    { intent_templates_scope_uq: templateExists() },
  );
}

export async function listIntentTemplates(db: EcoDb, intentId: string): Promise<IntentTemplateRow[]> {
  return db.select().from(intentTemplates).where(eq(intentTemplates.intentId, intentId)).orderBy(asc(intentTemplates.createdAt), asc(intentTemplates.id));
}

export async function findIntentTemplate(db: EcoDb, intentId: string, id: string): Promise<IntentTemplateRow | undefined> {
  const [row] = await db.select().from(intentTemplates).where(and(eq(intentTemplates.intentId, intentId), eq(intentTemplates.id, id)));
  return row;
}

export async function updateIntentTemplate(
  db: EcoDb,
  input: { intentId: string; id: string; role: TemplateRole; description: string | null | undefined; userId: string },
): Promise<IntentTemplateRow | undefined> {
  return withConflicts(
    async () => {
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
      return row;
    },
    { intent_templates_scope_uq: templateExists() },
  );
}

export async function deleteIntentTemplate(db: EcoDb, intentId: string, id: string): Promise<IntentTemplateRow | undefined> {
  const [row] = await db.delete(intentTemplates).where(and(eq(intentTemplates.intentId, intentId), eq(intentTemplates.id, id))).returning();
  return row;
}

/** The mappings that can answer a resolution for `orgId`: its override and the ecosystem-wide one. */
export async function findMappingsFor(db: EcoDb, intentId: string, orgId: string): Promise<IntentTemplateRow[]> {
  return db
    .select()
    .from(intentTemplates)
    .where(and(eq(intentTemplates.intentId, intentId), or(isNull(intentTemplates.orgId), eq(intentTemplates.orgId, orgId))));
}
