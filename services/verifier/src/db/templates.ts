// Verification template queries. Tenant scoping: every query filters on `orgId`,
// except `findTemplateById`, which the intent flow and the NATS responder use
// (a template named by an ecosystem may belong to the ecosystem lead's organisation).
import { and, count, desc, eq, getTableColumns, gt, inArray } from 'drizzle-orm';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, verificationTemplates, verifiers, type TemplateRow } from './schema.js';
import type { VerifierDb } from './types.js';

export interface TemplateValues {
  name: string;
  templateJson: { dcql: { query: Record<string, unknown> } };
  signerOption: string;
  clientIdPrefix: string | null;
  /** The verifier (row id) the template names, or null. */
  verifierRef: string | null;
}

/** A template with the `verifierId` of the verifier it names (null when none, or when that verifier was deleted). */
export type TemplateWithVerifier = TemplateRow & { verifierId: string | null };

const templateWithVerifierColumns = { ...getTableColumns(verificationTemplates), verifierId: verifiers.verifierId };

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
): Promise<{ rows: TemplateWithVerifier[]; total: number }> {
  const rows = await db
    .select(templateWithVerifierColumns)
    .from(verificationTemplates)
    .leftJoin(verifiers, eq(verifiers.id, verificationTemplates.verifierRef))
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
): Promise<TemplateWithVerifier | undefined> {
  const where = and(eq(verificationTemplates.orgId, params.orgId), eq(verificationTemplates.id, params.id));
  // The lock is taken on the template alone (an outer join's nullable side cannot be locked), then read with its verifier's id.
  if (params.lock === 'update')
    await db.select({ id: verificationTemplates.id }).from(verificationTemplates).where(where).for('update');
  const [row] = await db
    .select(templateWithVerifierColumns)
    .from(verificationTemplates)
    .leftJoin(verifiers, eq(verifiers.id, verificationTemplates.verifierRef))
    .where(where);
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
