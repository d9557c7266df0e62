// Verification template queries. Tenant scoping: every query filters on `orgId`,
// except `findTemplateById`, which the intent flow and the NATS responder use
// (a template named by an ecosystem may belong to the ecosystem lead's organisation).
import { and, count, desc, eq, gt, inArray } from 'drizzle-orm';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, verificationTemplates, type TemplateRow } from './schema.js';
import type { VerifierDb } from './types.js';

export interface TemplateValues {
  name: string;
  templateJson: { dcql: { query: Record<string, unknown> } };
  signerOption: string;
  clientIdPrefix: string | null;
}

export async function insertTemplate(
  db: VerifierDb,
  values: TemplateValues & { id: string; orgId: string; now: Date },
): Promise<TemplateRow> {
  const [row] = await db
    .insert(verificationTemplates)
    .values({ ...values, createdAt: values.now, updatedAt: values.now })
    .returning();
  return row!;
}

export async function listTemplates(
  db: VerifierDb,
  params: { orgId: string; limit: number; offset: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const rows = await db
    .select()
    .from(verificationTemplates)
    .where(eq(verificationTemplates.orgId, params.orgId))
    .orderBy(desc(verificationTemplates.createdAt), desc(verificationTemplates.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await db
    .select({ value: count() })
    .from(verificationTemplates)
    .where(eq(verificationTemplates.orgId, params.orgId));
  return { rows, total: total?.value ?? 0 };
}

export async function findTemplate(
  db: VerifierDb,
  params: { orgId: string; id: string; lock?: 'update' },
): Promise<TemplateRow | undefined> {
  const query = db
    .select()
    .from(verificationTemplates)
    .where(and(eq(verificationTemplates.orgId, params.orgId), eq(verificationTemplates.id, params.id)));
  const [row] = params.lock === 'update' ? await query.for('update') : await query;
  return row;
}

/** Any organisation's template (intent-based sessions, the NATS responder). */
export async function findTemplateById(db: VerifierDb, params: { id: string }): Promise<TemplateRow | undefined> {
  const [row] = await db.select().from(verificationTemplates).where(eq(verificationTemplates.id, params.id));
  return row;
}

export async function updateTemplate(
  db: VerifierDb,
  params: TemplateValues & { orgId: string; id: string; now: Date },
): Promise<TemplateRow | undefined> {
  const { orgId, id, now, ...values } = params;
  const [row] = await db
    .update(verificationTemplates)
    .set({ ...values, updatedAt: now })
    .where(and(eq(verificationTemplates.orgId, orgId), eq(verificationTemplates.id, id)))
    .returning();
  return row;
}

export async function deleteTemplateRow(db: VerifierDb, params: { orgId: string; id: string }): Promise<void> {
  await db
    .delete(verificationTemplates)
    .where(and(eq(verificationTemplates.orgId, params.orgId), eq(verificationTemplates.id, params.id)));
}

/** Open sessions of any organisation created from this template. */
export async function countOpenSessionsOfTemplate(
  db: VerifierDb,
  params: { templateId: string; now: Date },
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(presentationSessions)
    .where(
      and(
        eq(presentationSessions.templateId, params.templateId),
        inArray(presentationSessions.state, [...OPEN_STATES]),
        gt(presentationSessions.expiresAt, params.now),
      ),
    );
  return row?.value ?? 0;
}
