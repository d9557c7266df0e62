// Presentation session queries. Tenant scoping: management reads and writes take
// `orgId`; the wallet endpoints find a session by its unguessable
// `authorizationRequestId` alone, as the protocol has no organisation in it.
// A session's template may be another organisation's (intent-based sessions).
import { and, count, desc, eq, getTableColumns, gt, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { SessionListQuery } from '@tessera/contracts';
import { preparedFor, runRawStatement } from '@tessera/service-kit';
import { DC_API_MODES } from '../domain/response-mode.js';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationSessions, sessionCounts, type SessionRow } from './schema.js';
import { decodeSessionRowParsingJsonOnUse, SESSION_COLUMN_ENTRIES, SESSION_JSON_KEYS } from './session-rows.js';
import { toTrustAnchorMaterial, trustAnchorMaterialOf, type TrustAnchorMaterial } from './trust-anchors.js';
import type { VerifierDb } from './types.js';

export async function findSessionByRequestId(
  db: VerifierDb,
  authorizationRequestId: string,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(presentationSessions)
    .where(eq(presentationSessions.authorizationRequestId, authorizationRequestId));
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
export async function countSessionRequest(
  db: VerifierDb,
  params: CountSessionRequestParams,
): Promise<CountedSession | undefined> {
  const byRequestId = 'authorizationRequestId' in params.session;
  const statement = countingStatements[`${byRequestId ? 'requestId' : 'orgAndId'}:${params.counter}`](db);
  const [row] = await statement.execute({
    now: params.now.toISOString(),
    windowStart: new Date(params.now.getTime() - params.windowMs).toISOString(),
    ...params.session,
  });
  if (!row) return undefined;
  if (!('anchors' in row)) return row;
  const { anchors, ...session } = row;
  return {
    ...session,
    trustAnchors: toTrustAnchorMaterial(typeof anchors === 'string' ? JSON.parse(anchors) : anchors),
  };
}

export interface CountRequestFetchParams {
  authorizationRequestId: string;
  now: Date;
  /** Length of a counting window; the counts restart when it has passed. */
  windowMs: number;
  /** SESSION_REQUEST_FETCH_LIMIT: a fetch beyond it moves nothing. */
  limit: number;
  /** The fetch is served the object signed at creation (no `wallet_nonce` to echo): it may move the state now. */
  servesStoredObject: boolean;
}

/**
 * A request-object fetch counted (as `countSessionRequest` counts it) and, in the same
 * statement, the first retrieval: `RequestCreated` → `RequestUriRetrieved` when this
 * fetch is within the limit, the session is unexpired at `now`, is not a DC API session
 * and has its signed object stored, and the fetch is served that object (a `wallet_nonce`
 * fetch signs anew first and moves the state after, `markRequestRetrieved`). The row is
 * locked before it is read, so of concurrent fetches exactly one sees the move
 * (`retrieved`). Undefined when no such session exists (nothing is written then).
 */
export async function countRequestFetch(
  db: VerifierDb,
  params: CountRequestFetchParams,
): Promise<{ session: SessionRow; retrieved: boolean } | undefined> {
  const [row] = await runRawStatement<Record<string, unknown> & { previous_state: string }>(db, COUNT_REQUEST_FETCH, [
    params.authorizationRequestId,
    params.now.toISOString(),
    new Date(params.now.getTime() - params.windowMs).toISOString(),
    params.limit,
    params.servesStoredObject,
  ]);
  if (!row) return undefined;
  const session = decodeSessionRowParsingJsonOnUse(row);
  return { session, retrieved: row.previous_state === 'RequestCreated' && session.state === 'RequestUriRetrieved' };
}

/** A session's counting window restarts with this request ($3: the start of the current window). */
const FETCH_WINDOW_RESTARTS = '(s.limit_window_started_at is null or s.limit_window_started_at <= $3::timestamptz)';
const FETCH_COUNTED = `(case when ${FETCH_WINDOW_RESTARTS} then 1 else s.request_fetch_count + 1 end)`;
/** The conditions of `countRequestFetch`'s state change, on the row as it was (SET sees the old row). */
const FETCH_RETRIEVES = `($5::boolean and s.state = 'RequestCreated' and s.expires_at > $2::timestamptz
    and s.request_object is not null and s.response_mode not in (${DC_API_MODES.map((mode) => `'${mode}'`).join(', ')}) and ${FETCH_COUNTED} <= $4::integer)`;

/**
 * $1 authorization request id, $2 now, $3 window start (now − window), $4 fetch limit, $5 served the stored object.
 * `previous` locks the row and keeps its state as it was, which RETURNING alone cannot show.
 */
const COUNT_REQUEST_FETCH = `
  update "verifier"."presentation_sessions" s set
    limit_window_started_at = case when ${FETCH_WINDOW_RESTARTS} then $2::timestamptz else s.limit_window_started_at end,
    request_fetch_count = ${FETCH_COUNTED},
    response_count = case when ${FETCH_WINDOW_RESTARTS} then 0 else s.response_count end,
    state = case when ${FETCH_RETRIEVES} then 'RequestUriRetrieved' else s.state end,
    request_retrieved_at = case when ${FETCH_RETRIEVES} then $2::timestamptz else s.request_retrieved_at end,
    updated_at = case when ${FETCH_RETRIEVES} then $2::timestamptz else s.updated_at end
  from (
    select id, state from "verifier"."presentation_sessions" where authorization_request_id = $1 for update
  ) previous
  where s.id = previous.id
  returning ${SESSION_COLUMN_ENTRIES.map(([key, column]) =>
    SESSION_JSON_KEYS.has(key) ? `s."${column.name}"::text as "${column.name}"` : `s."${column.name}"`,
  ).join(', ')}, previous.state as previous_state`;

/**
 * A session as a wallet request reads it; an answer (`response`) also brings
 * the organisation's trust anchors, read in the same statement (one round trip
 * instead of two), as verification uses them.
 */
export type CountedSession = SessionRow & { trustAnchors?: TrustAnchorMaterial };

/** The counting UPDATE, prepared once per key and counter (it runs on every wallet request). */
function prepareCountSessionRequest(key: 'requestId' | 'orgAndId', counter: CountSessionRequestParams['counter']) {
  return preparedFor((db: VerifierDb) => {
    const t = presentationSessions;
    const now = sql.placeholder('now');
    const restart = sql`(${t.limitWindowStartedAt} is null or ${t.limitWindowStartedAt} <= ${sql.placeholder('windowStart')}::timestamptz)`;
    const bump = (column: typeof t.requestFetchCount | typeof t.responseCount, counted: boolean) =>
      counted
        ? sql`case when ${restart} then 1 else ${column} + 1 end`
        : sql`case when ${restart} then 0 else ${column} end`;
    const where =
      key === 'requestId'
        ? eq(t.authorizationRequestId, sql.placeholder('authorizationRequestId'))
        : and(eq(t.orgId, sql.placeholder('orgId')), eq(t.id, sql.placeholder('id')));
    const update = db
      .update(t)
      .set({
        limitWindowStartedAt: sql`case when ${restart} then ${now}::timestamptz else ${t.limitWindowStartedAt} end`,
        requestFetchCount: bump(t.requestFetchCount, counter === 'requestFetch'),
        responseCount: bump(t.responseCount, counter === 'response'),
      })
      .where(where);
    const name = `count_session_${key}_${counter}`;
    if (counter !== 'response') return update.returning().prepare(name);
    return update
      .returning({
        ...getTableColumns(t),
        anchors: trustAnchorMaterialOf(sql.raw('"verifier"."presentation_sessions"."org_id"')),
      })
      .prepare(name);
  });
}

const countingStatements = {
  'requestId:requestFetch': prepareCountSessionRequest('requestId', 'requestFetch'),
  'requestId:response': prepareCountSessionRequest('requestId', 'response'),
  'orgAndId:requestFetch': prepareCountSessionRequest('orgAndId', 'requestFetch'),
  'orgAndId:response': prepareCountSessionRequest('orgAndId', 'response'),
};

export async function findSession(
  db: VerifierDb,
  params: { orgId: string; id: string },
): Promise<SessionRow | undefined> {
  const [row] = await selectSession(db).execute(params);
  return row;
}

/** Read whenever a relying party reads a session or its result: prepared once per database handle. */
const selectSession = preparedFor((db: VerifierDb) =>
  db
    .select()
    .from(presentationSessions)
    .where(
      and(eq(presentationSessions.orgId, sql.placeholder('orgId')), eq(presentationSessions.id, sql.placeholder('id'))),
    )
    .prepare('find_session'),
);

export type SessionFilters = Omit<SessionListQuery, 'pageNumber' | 'pageSize' | 'id'>;

export async function listSessions(
  db: VerifierDb,
  params: { orgId: string; filters: SessionFilters; limit: number; offset: number },
): Promise<{ rows: SessionRow[]; total: number }> {
  const { filters } = params;
  const conditions: SQL[] = [eq(presentationSessions.orgId, params.orgId)];
  if (filters.publicVerifierId) conditions.push(eq(presentationSessions.publicVerifierId, filters.publicVerifierId));
  if (filters.payloadState) conditions.push(eq(presentationSessions.payloadState, filters.payloadState));
  if (filters.authorizationRequestUri)
    conditions.push(eq(presentationSessions.authorizationRequestUri, filters.authorizationRequestUri));
  if (filters.authorizationRequestId)
    conditions.push(eq(presentationSessions.authorizationRequestId, filters.authorizationRequestId));
  if (filters.nonce) conditions.push(eq(presentationSessions.nonce, filters.nonce));
  if (filters.state) conditions.push(eq(presentationSessions.state, filters.state));
  // Ranges of the (org_id, created_at, id) index the pages are read from.
  if (filters.createdAfter) conditions.push(gt(presentationSessions.createdAt, new Date(filters.createdAfter)));
  if (filters.createdBefore) conditions.push(lt(presentationSessions.createdAt, new Date(filters.createdBefore)));
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(presentationSessions)
    .where(where)
    .orderBy(desc(presentationSessions.createdAt), desc(presentationSessions.id))
    .limit(params.limit)
    .offset(params.offset);
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
export async function markRequestRetrieved(
  db: VerifierDb,
  params: { id: string; now: Date },
): Promise<SessionRow | undefined> {
  const [row] = await updateRequestRetrieved(db).execute({ id: params.id, now: params.now.toISOString() });
  return row;
}

/** Runs on the first fetch of every session: prepared once per database handle. */
const updateRequestRetrieved = preparedFor((db: VerifierDb) =>
  db
    .update(presentationSessions)
    .set({
      state: 'RequestUriRetrieved',
      requestRetrievedAt: sql`${sql.placeholder('now')}::timestamptz`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(and(eq(presentationSessions.id, sql.placeholder('id')), eq(presentationSessions.state, 'RequestCreated')))
    .returning()
    .prepare('mark_request_retrieved'),
);

/** The ecosystems whose trust lists open, unexpired sessions are verified against (read at start, across organisations). */
export async function listTrustEcosystemsOfOpenSessions(db: VerifierDb, params: { now: Date }): Promise<string[]> {
  const t = presentationSessions;
  const rows = await db
    .selectDistinct({ ecosystemId: t.trustEcosystemId })
    .from(t)
    .where(and(isNotNull(t.trustEcosystemId), inArray(t.state, [...OPEN_STATES]), gt(t.expiresAt, params.now)));
  return rows.map((row) => row.ecosystemId).filter((id): id is string => id !== null);
}
