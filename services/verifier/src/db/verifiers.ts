// Verifier queries. Tenant scoping: every query takes `orgId` and filters on it.
import { and, count, desc, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import { preparedFor } from '@tessera/service-kit';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, registrationCertificates, verifiers, type VerifierRow } from './schema.js';
import type { VerifierDb } from './types.js';

/** A verifier's settings as written: a setting not given keeps its column default (insert) or its value (update). */
export interface VerifierSettings {
  clientMetadata: Record<string, unknown> | null;
  overAskingPolicy?: string;
  strictHaip?: boolean;
}

/** Inserts the verifier; undefined when the organisation already has one with this `verifierId`. */
export async function insertVerifier(
  db: VerifierDb,
  values: VerifierSettings & { id: string; orgId: string; verifierId: string; now: Date },
): Promise<VerifierRow | undefined> {
  const [row] = await db
    .insert(verifiers)
    .values({
      id: values.id,
      orgId: values.orgId,
      verifierId: values.verifierId,
      clientMetadata: values.clientMetadata,
      ...(values.overAskingPolicy !== undefined ? { overAskingPolicy: values.overAskingPolicy } : {}),
      ...(values.strictHaip !== undefined ? { strictHaip: values.strictHaip } : {}),
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

/** Replaces the display metadata; a setting not given keeps its value. */
/** What a new session needs of its verifier's registration certificate. */
export interface SessionRegistration {
  jwt: string;
  summary: Record<string, unknown>;
  notAfter: Date;
}

/**
 * The verifier and its registration certificate (null without one), in one statement: read for
 * every session created, so the judgement of a session costs no round trip of its own.
 */
/** A verifier as a new session reads it: its row and its registration certificate (null without one). */
export interface VerifierForSession {
  verifier: VerifierRow;
  registration: SessionRegistration | null;
}

export async function findVerifierForSession(
  db: VerifierDb,
  params: { orgId: string; verifierId: string },
): Promise<VerifierForSession | undefined> {
  const [row] = await selectVerifierForSession(db).execute(params);
  if (!row) return undefined;
  const { registrationJwt, registrationSummary, registrationNotAfter, ...verifier } = row;
  return {
    verifier,
    registration:
      registrationJwt && registrationSummary && registrationNotAfter
        ? { jwt: registrationJwt, summary: registrationSummary, notAfter: registrationNotAfter }
        : null,
  };
}

const selectVerifierForSession = preparedFor((db: VerifierDb) =>
  db
    .select({
      ...getTableColumns(verifiers),
      registrationJwt: registrationCertificates.jwt,
      registrationSummary: registrationCertificates.summary,
      registrationNotAfter: registrationCertificates.notAfter,
    })
    .from(verifiers)
    .leftJoin(registrationCertificates, eq(registrationCertificates.verifierRef, verifiers.id))
    .where(and(eq(verifiers.orgId, sql.placeholder('orgId')), eq(verifiers.verifierId, sql.placeholder('verifierId'))))
    .prepare('find_verifier_for_session'),
);

export async function updateVerifierMetadata(
  db: VerifierDb,
  params: VerifierSettings & { orgId: string; verifierId: string; now: Date },
): Promise<VerifierRow | undefined> {
  const [row] = await db
    .update(verifiers)
    .set({
      clientMetadata: params.clientMetadata,
      ...(params.overAskingPolicy !== undefined ? { overAskingPolicy: params.overAskingPolicy } : {}),
      ...(params.strictHaip !== undefined ? { strictHaip: params.strictHaip } : {}),
      updatedAt: params.now,
    })
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
