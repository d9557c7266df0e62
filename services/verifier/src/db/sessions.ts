// Presentation session queries. Tenant scoping: management reads and writes take
// `orgId`; the wallet endpoints find a session by its unguessable
// `authorizationRequestId` alone, as the protocol has no organisation in it.
// A session's template may be another organisation's (intent-based sessions).
import { and, count, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { SessionListQuery } from '@tessera/contracts';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, sessionCounts, verificationTemplates, verifiers, type SessionRow } from './schema.js';
import type { VerifierDb } from './types.js';

export type NewSession = typeof presentationSessions.$inferInsert;

export type InsertSessionResult = { session: SessionRow } | { missing: 'verifier' | 'template' };

/**
 * Inserts a session and counts it for its organisation, in one transaction that
 * first locks the session's verifier (and template) FOR SHARE: a concurrent
 * delete (FOR UPDATE) waits for the insert and then sees the open session.
 * `{ missing }` when the verifier or template is gone; nothing is written then.
 */
export async function insertSession(db: VerifierDb, values: NewSession): Promise<InsertSessionResult> {
  return db.transaction(async (tx) => {
    const verifier = await tx
      .select({ id: verifiers.id })
      .from(verifiers)
      .where(and(eq(verifiers.orgId, values.orgId), eq(verifiers.id, values.verifierRef)))
      .for('share');
    if (verifier.length === 0) return { missing: 'verifier' as const };
    if (values.templateId) {
      const template = await tx.select({ id: verificationTemplates.id }).from(verificationTemplates).where(eq(verificationTemplates.id, values.templateId)).for('share');
      if (template.length === 0) return { missing: 'template' as const };
    }
    const [row] = await tx.insert(presentationSessions).values(values).returning();
    await tx
      .insert(sessionCounts)
      .values({ orgId: values.orgId, total: 1 })
      .onConflictDoUpdate({ target: sessionCounts.orgId, set: { total: sql`${sessionCounts.total} + 1` } });
    return { session: row! };
  });
}

export async function findSessionByRequestId(db: VerifierDb, authorizationRequestId: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(presentationSessions).where(eq(presentationSessions.authorizationRequestId, authorizationRequestId));
  return row;
}

/** Which session a public request names: the wallet endpoints by `authorizationRequestId`, the DC API call by organisation and id. */
export type CountedSessionKey = { authorizationRequestId: string } | { orgId: string; id: string };

export interface CountSessionRequestParams {
  session: CountedSessionKey;
  /** What is counted: a request-object fetch or an answer (wallet response, DC API response). */
  counter: 'requestFetch' | 'response';
  now: Date;
  /** Length of a counting window; the counts restart when it has passed. */
  windowMs: number;
}

/**
 * Reads a session and counts this request against its per-session limits in one
 * statement (UPDATE … RETURNING): one round trip, as the plain read it replaces,
 * and one count for every replica. When the window that started at
 * `limit_window_started_at` has passed, the counts restart with this request.
 * `updated_at` is left alone: being counted is not a change of the session.
 * Undefined when no such session exists (nothing is written then).
 */
export async function countSessionRequest(db: VerifierDb, params: CountSessionRequestParams): Promise<SessionRow | undefined> {
  const now = params.now.toISOString();
  const windowStart = new Date(params.now.getTime() - params.windowMs).toISOString();
  const t = presentationSessions;
  const restart = sql`(${t.limitWindowStartedAt} is null or ${t.limitWindowStartedAt} <= ${windowStart}::timestamptz)`;
  const bump = (column: typeof t.requestFetchCount | typeof t.responseCount, counted: boolean) =>
    counted ? sql`case when ${restart} then 1 else ${column} + 1 end` : sql`case when ${restart} then 0 else ${column} end`;
  const key = 'authorizationRequestId' in params.session ? eq(t.authorizationRequestId, params.session.authorizationRequestId) : and(eq(t.orgId, params.session.orgId), eq(t.id, params.session.id));
  const [row] = await db
    .update(t)
    .set({
      limitWindowStartedAt: sql`case when ${restart} then ${now}::timestamptz else ${t.limitWindowStartedAt} end`,
      requestFetchCount: bump(t.requestFetchCount, params.counter === 'requestFetch'),
      responseCount: bump(t.responseCount, params.counter === 'response'),
    })
    .where(key)
    .returning();
  return row;
}

export async function findSession(db: VerifierDb, params: { orgId: string; id: string }): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(presentationSessions).where(and(eq(presentationSessions.orgId, params.orgId), eq(presentationSessions.id, params.id)));
  return row;
}

export type SessionFilters = Omit<SessionListQuery, 'pageNumber' | 'pageSize' | 'id'>;

export async function listSessions(db: VerifierDb, params: { orgId: string; filters: SessionFilters; limit: number; offset: number }): Promise<{ rows: SessionRow[]; total: number }> {
  const { filters } = params;
  const conditions: SQL[] = [eq(presentationSessions.orgId, params.orgId)];
  if (filters.publicVerifierId) conditions.push(eq(presentationSessions.publicVerifierId, filters.publicVerifierId));
  if (filters.payloadState) conditions.push(eq(presentationSessions.payloadState, filters.payloadState));
  if (filters.authorizationRequestUri) conditions.push(eq(presentationSessions.authorizationRequestUri, filters.authorizationRequestUri));
  if (filters.authorizationRequestId) conditions.push(eq(presentationSessions.authorizationRequestId, filters.authorizationRequestId));
  if (filters.nonce) conditions.push(eq(presentationSessions.nonce, filters.nonce));
  if (filters.state) conditions.push(eq(presentationSessions.state, filters.state));
  const where = and(...conditions);
  const rows = await db.select().from(presentationSessions).where(where).orderBy(desc(presentationSessions.createdAt), desc(presentationSessions.id)).limit(params.limit).offset(params.offset);
  // Unfiltered, the organisation's kept count is exact; filters need a count of their own.
  const [total] =
    conditions.length === 1
      ? await db.select({ value: sessionCounts.total }).from(sessionCounts).where(eq(sessionCounts.orgId, params.orgId))
      : await db.select({ value: count() }).from(presentationSessions).where(where);
  return { rows, total: total?.value ?? 0 };
}

/**
 * The first retrieval: `RequestCreated` → `RequestUriRetrieved`, conditional on
 * the state so concurrent fetches move it once. Returns the row when it moved.
 */
export async function markRequestRetrieved(db: VerifierDb, params: { id: string; now: Date }): Promise<SessionRow | undefined> {
  const [row] = await db
    .update(presentationSessions)
    .set({ state: 'RequestUriRetrieved', requestRetrievedAt: params.now, updatedAt: params.now })
    .where(and(eq(presentationSessions.id, params.id), eq(presentationSessions.state, 'RequestCreated')))
    .returning();
  return row;
}

/** Persists expiry: open sessions past `expiresAt` become `Error`/SESSION_EXPIRED. Returns the rows changed. */
export async function expireSessions(db: VerifierDb, params: { orgId?: string; id?: string; now: Date; message: string }): Promise<Array<{ id: string; orgId: string }>> {
  const conditions: SQL[] = [inArray(presentationSessions.state, [...OPEN_STATES]), lte(presentationSessions.expiresAt, params.now)];
  if (params.orgId) conditions.push(eq(presentationSessions.orgId, params.orgId));
  if (params.id) conditions.push(eq(presentationSessions.id, params.id));
  return db
    .update(presentationSessions)
    .set({ state: 'Error', errorCode: 'SESSION_EXPIRED', errorMessage: params.message, updatedAt: params.now })
    .where(and(...conditions))
    .returning({ id: presentationSessions.id, orgId: presentationSessions.orgId });
}
