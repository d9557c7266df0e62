// Verifier queries. Tenant scoping: every query takes `orgId` and filters on it.
import { and, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { preparedFor } from '@tessera/service-kit';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, verifiers, type VerifierRow } from './schema.js';
import type { VerifierDb } from './types.js';

/** Inserts the verifier; undefined when the organisation already has one with this `verifierId`. */
export async function insertVerifier(
  db: VerifierDb,
  values: { id: string; orgId: string; verifierId: string; clientMetadata: Record<string, unknown> | null; now: Date },
): Promise<VerifierRow | undefined> {
  const [row] = await db
    .insert(verifiers)
    .values({
      id: values.id,
      orgId: values.orgId,
      verifierId: values.verifierId,
      clientMetadata: values.clientMetadata,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoNothing({ target: [verifiers.orgId, verifiers.verifierId] })
    .returning();
  return row;
}

export async function listVerifiers(
  db: VerifierDb,
  params: { orgId: string; limit: number; offset: number },
): Promise<{ rows: VerifierRow[]; total: number }> {
  const rows = await db
    .select()
    .from(verifiers)
    .where(eq(verifiers.orgId, params.orgId))
    .orderBy(desc(verifiers.createdAt), desc(verifiers.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await db.select({ value: count() }).from(verifiers).where(eq(verifiers.orgId, params.orgId));
  return { rows, total: total?.value ?? 0 };
}

/** The verifier, locked FOR UPDATE when asked (delete: waits for session inserts holding FOR SHARE). */
export async function findVerifier(
  db: VerifierDb,
  params: { orgId: string; verifierId: string; lock?: 'update' },
): Promise<VerifierRow | undefined> {
  if (params.lock !== 'update') {
    const [row] = await selectVerifier(db).execute({ orgId: params.orgId, verifierId: params.verifierId });
    return row;
  }
  const [row] = await db
    .select()
    .from(verifiers)
    .where(and(eq(verifiers.orgId, params.orgId), eq(verifiers.verifierId, params.verifierId)))
    .for('update');
  return row;
}

/** The plain read runs for every session created: prepared once per database handle. */
const selectVerifier = preparedFor((db: VerifierDb) =>
  db
    .select()
    .from(verifiers)
    .where(and(eq(verifiers.orgId, sql.placeholder('orgId')), eq(verifiers.verifierId, sql.placeholder('verifierId'))))
    .prepare('find_verifier'),
);

export async function updateVerifierMetadata(
  db: VerifierDb,
  params: { orgId: string; verifierId: string; clientMetadata: Record<string, unknown> | null; now: Date },
): Promise<VerifierRow | undefined> {
  const [row] = await db
    .update(verifiers)
    .set({ clientMetadata: params.clientMetadata, updatedAt: params.now })
    .where(and(eq(verifiers.orgId, params.orgId), eq(verifiers.verifierId, params.verifierId)))
    .returning();
  return row;
}

export async function deleteVerifierRow(db: VerifierDb, params: { orgId: string; id: string }): Promise<void> {
  await db.delete(verifiers).where(and(eq(verifiers.orgId, params.orgId), eq(verifiers.id, params.id)));
}

/** Sessions of this verifier still waiting for a wallet at `now`. */
export async function countOpenSessionsOfVerifier(
  db: VerifierDb,
  params: { orgId: string; verifierRef: string; now: Date },
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(presentationSessions)
    .where(
      and(
        eq(presentationSessions.orgId, params.orgId),
        eq(presentationSessions.verifierRef, params.verifierRef),
        inArray(presentationSessions.state, [...OPEN_STATES]),
        gt(presentationSessions.expiresAt, params.now),
      ),
    );
  return row?.value ?? 0;
}
