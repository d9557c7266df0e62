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
import { toTrustAnchorMaterial, trustAnchorMaterialOf, type TrustAnchorMaterial } from './trust-anchors.js';
import type { VerifierDb } from './types.js';
import { OUTBOX_SESSION_COLUMNS, webhookOutboxInsert } from './webhook-outbox.js';

export type NewSession = typeof presentationSessions.$inferInsert;

export type InsertSessionResult =
  | { session: SessionRow }
  | { missing: 'verifier' | 'template' }
  /** What the session was made from is no longer what is stored (`InsertSessionExpectations`); nothing written. */
  | { changed: true };

/**
 * What a session was made from, as remembered by the replica instead of read for it:
 * the insert checks, in its own statement, that the stored rows still say this.
 */
export interface InsertSessionExpectations {
  /** The verifier's settings the session used, and its registration certificate (null: none). */
  verifier: {
    verifierId: string;
    clientMetadata: Record<string, unknown> | null;
    overAskingPolicy: string;
    strictHaip: boolean;
    registrationJwt: string | null;
  };
  /** The organisation's signing-key row the request object was signed with. */
  signingKey: {
    keyType: string;
    source: string;
    encryptedPrivateKey: string;
    certificateChain: string[] | null;
  };
}

/**
 * Inserts a session and counts it for its organisation, in one statement (one
 * round trip, atomic) that first locks the session's verifier (and template)
 * FOR SHARE: a concurrent delete (FOR UPDATE) waits for the insert and then
 * sees the open session. `{ missing }` when the verifier or template is gone;
 * with `expected`, `{ changed }` when the verifier, its registration certificate or
 * the signing key is no longer as expected; nothing is written then. The row
 * answered is the one written.
 */
export async function insertSession(
  db: VerifierDb,
  values: NewSession,
  expected?: InsertSessionExpectations,
): Promise<InsertSessionResult> {
  const given: Array<keyof typeof sessionColumns> = [];
  const encoded: unknown[] = [];
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = values[key as keyof NewSession];
    if (value === undefined) continue;
    given.push(key as keyof typeof sessionColumns);
    // The column's own encoding (JSON text for jsonb, ISO text for timestamps); the text casts it.
    encoded.push(value === null ? null : column.mapToDriverValue(value as never));
  }
  const withTemplate = values.templateId !== null && values.templateId !== undefined;
  const text = insertSessionText(given, withTemplate, expected !== undefined);
  const checks = expected
    ? [
        expected.verifier.clientMetadata === null ? null : JSON.stringify(expected.verifier.clientMetadata),
        expected.verifier.overAskingPolicy,
        expected.verifier.strictHaip,
        expected.verifier.verifierId,
        expected.verifier.registrationJwt,
        expected.signingKey.keyType,
        expected.signingKey.source,
        expected.signingKey.encryptedPrivateKey,
        expected.signingKey.certificateChain === null ? null : JSON.stringify(expected.signingKey.certificateChain),
      ]
    : [];
  const [answer] = await runRawStatement<{
    verifier_found: boolean;
    template_found: boolean;
    unchanged: boolean;
    inserted: boolean;
  }>(db, text, [values.orgId, values.verifierRef, values.templateId ?? null, ...checks, ...encoded]);
  if (!answer?.verifier_found) return { missing: 'verifier' };
  if (values.templateId && !answer.template_found) return { missing: 'template' };
  if (!answer.unchanged) return { changed: true };
  if (!answer.inserted) throw new Error('the session was not inserted although its verifier and template exist');
  return { session: writtenSession(values) };
}

const sessionColumns = getTableColumns(presentationSessions);
/** The session columns by property name, listed once (every create writes a row, every wallet request and read decodes one). */
const SESSION_COLUMN_ENTRIES = Object.entries(sessionColumns);
/** The session's jsonb columns, by property name. */
const SESSION_JSON_KEYS = new Set(
  SESSION_COLUMN_ENTRIES.filter(([, column]) => column.getSQLType() === 'jsonb').map(([key]) => key),
);
const insertSessionTexts = new Map<string, string>();

/** The parameters of `InsertSessionExpectations`, after $1–$3: $4–$12. */
const EXPECTATION_PARAMETERS = 9;

/**
 * The insert's SQL for one set of given columns, written once: $1 org, $2 verifier
 * id, $3 template id (null when none), with `checked` $4–$12 the expectations
 * (`insertSession`), then the columns in `given` order.
 */
function insertSessionText(given: Array<keyof typeof sessionColumns>, withTemplate: boolean, checked: boolean): string {
  const key = `${withTemplate}|${checked}|${given.join(',')}`;
  let text = insertSessionTexts.get(key);
  if (!text) {
    const first = checked ? 4 + EXPECTATION_PARAMETERS : 4;
    const columns = given.map((column) => `"${sessionColumns[column].name}"`).join(', ');
    const values = given.map((column, index) => `$${index + first}::${sessionColumns[column].getSQLType()}`).join(', ');
    // The verifier's settings, its registration certificate and the signing key, as the session was made from them.
    const unchanged = checked
      ? `exists (
          select 1 from verifier v
          where v.verifier_id = $7 and v.client_metadata is not distinct from $4::jsonb
            and v.over_asking_policy = $5 and v.strict_haip = $6::boolean
            and (select rc.jwt from "verifier"."registration_certificates" rc where rc.verifier_ref = v.id) is not distinct from $8::text
        ) and exists (
          select 1 from "verifier"."signing_keys" k
          where k.org_id = $1 and k.key_type = $9 and k.source = $10 and k.encrypted_private_key = $11
            and k.certificate_chain is not distinct from $12::jsonb
        )`
      : 'true';
    text = `with verifier as (
        select id, verifier_id, client_metadata, over_asking_policy, strict_haip
        from "verifier"."verifiers" where org_id = $1 and id = $2::uuid for share
      ),
      template as (select id from "verifier"."verification_templates" where id = $3::uuid for share),
      unchanged as (select ${unchanged} as ok),
      inserted as (
        insert into "verifier"."presentation_sessions" (${columns})
        select ${values}
        where exists (select 1 from verifier) and ${withTemplate ? 'exists (select 1 from template)' : 'true'}
          and (select ok from unchanged)
        returning org_id
      ),
      counted as (
        insert into "verifier"."session_counts" as counts (org_id, total) select org_id, 1 from inserted
        on conflict (org_id) do update set total = counts.total + 1
        returning org_id
      )
      select exists (select 1 from verifier) as verifier_found, exists (select 1 from template) as template_found,
        (select ok from unchanged) as unchanged, exists (select 1 from counted) as inserted`;
    insertSessionTexts.set(key, text);
  }
  return text;
}

/** The row as `insertSession` wrote it: the values given, the column defaults for the rest. */
function writtenSession(values: NewSession): SessionRow {
  const row: Record<string, unknown> = { ...SESSION_DEFAULTS };
  for (const key in values) {
    const value = values[key as keyof NewSession];
    if (value !== undefined) row[key] = value;
  }
  return row as SessionRow;
}

/** The columns `insertSession` may leave to their defaults, as the table has them. */
const SESSION_DEFAULTS = {
  templateId: null,
  intentId: null,
  ecosystemId: null,
  trustEcosystemId: null,
  authorizationRequestUri: null,
  requestUri: null,
  responseUri: null,
  signingChain: null,
  requestObject: null,
  expectedOrigins: null,
  transactionData: null,
  redirectUri: null,
  encryptionPublicJwk: null,
  encryptedEncryptionKey: null,
  dcApiProtocols: null,
  dcApiSignerClientIds: null,
  annexCEncryptionInfo: null,
  encryptedAnnexCKey: null,
  errorCode: null,
  errorSubject: null,
  errorMessage: null,
  requestRetrievedAt: null,
  requestFetchCount: 0,
  responseCount: 0,
  limitWindowStartedAt: null,
  responseCodeHash: null,
  verifierInfo: null,
  overAsking: null,
} as const;

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

export interface ExpireSessionsParams {
  /** One session, or all of an organisation's (both may be given); neither: every organisation's (the sweeper). */
  orgId?: string;
  id?: string;
  /** At most this many, oldest end first, skipping sessions another transaction holds (the sweeper on each replica). */
  limit?: number;
  now: Date;
  message: string;
}

/**
 * Persists expiry: open sessions past `expiresAt` become `Error`/SESSION_EXPIRED,
 * and their webhook events are written in the same statement (db/webhook-outbox.ts).
 * Their sealed decryption keys go with it, as when an answer settles a session.
 * The state condition makes each session expire once, whoever runs this first.
 * Returns the rows changed.
 */
export async function expireSessions(
  db: VerifierDb,
  params: ExpireSessionsParams,
): Promise<Array<{ id: string; orgId: string }>> {
  const text = expireSessionsText(params.orgId !== undefined, params.id !== undefined, params.limit !== undefined);
  const values: unknown[] = [params.now.toISOString(), params.message];
  if (params.orgId !== undefined) values.push(params.orgId);
  if (params.id !== undefined) values.push(params.id);
  if (params.limit !== undefined) values.push(params.limit);
  const rows = await runRawStatement<{ id: string; org_id: string }>(db, text, values);
  return rows.map((row) => ({ id: row.id, orgId: row.org_id }));
}

const expireSessionsTexts = new Map<string, string>();

/**
 * The expiry statement for one combination of filters, written once: $1 now, $2
 * message, then org id, session id and limit, each when given. With a limit, the
 * sessions are picked FOR UPDATE SKIP LOCKED, so replicas sweeping together share
 * the work instead of queueing on each other's rows.
 */
function expireSessionsText(byOrg: boolean, byId: boolean, limited: boolean): string {
  const key = `${byOrg}|${byId}|${limited}`;
  let text = expireSessionsTexts.get(key);
  if (!text) {
    let next = 3;
    const filters = [
      `state in (${OPEN_STATES.map((state) => `'${state}'`).join(', ')})`,
      'expires_at <= $1::timestamptz',
    ];
    if (byOrg) filters.push(`org_id = $${next++}`);
    if (byId) filters.push(`id = $${next++}::uuid`);
    const where = filters.join(' and ');
    const target = limited
      ? `id in (select id from "verifier"."presentation_sessions" where ${where} order by expires_at limit $${next} for update skip locked) and ${where}`
      : where;
    text = `with expired as (
        update "verifier"."presentation_sessions"
        set state = 'Error', error_code = 'SESSION_EXPIRED', error_message = $2,
          encrypted_encryption_key = null, encrypted_annex_c_key = null, updated_at = $1::timestamptz
        where ${target}
        returning ${OUTBOX_SESSION_COLUMNS}
      ),
      outboxed as (${webhookOutboxInsert('expired', 'expired', '$1::timestamptz')})
      select id, org_id from expired`;
    expireSessionsTexts.set(key, text);
  }
  return text;
}

/**
 * A `presentation_sessions` row as a raw statement answers it (snake_case names,
 * driver values) → the row Drizzle would answer, through each column's own decoding.
 */
export function decodeSessionRow(raw: Record<string, unknown>): SessionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as SessionRow;
}

/**
 * `decodeSessionRow` for a row whose jsonb columns came as text (`countRequestFetch`): each is
 * parsed when first read. A fetch served the object signed at creation reads none of them
 * (the query, metadata, chain and attestations are inside that object), and parsing them
 * was most of the cost of decoding its row; a fetch signing anew reads them as before.
 */
function decodeSessionRowParsingJsonOnUse(raw: Record<string, unknown>): SessionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of SESSION_COLUMN_ENTRIES) {
    const value = raw[column.name];
    if (value === null || value === undefined) row[key] = null;
    else if (SESSION_JSON_KEYS.has(key)) defineParsedOnFirstRead(row, key, value as string);
    else row[key] = column.mapFromDriverValue(value);
  }
  return row as SessionRow;
}

/** `row[key]` is `JSON.parse(text)`, parsed on its first read (or replaced by a write) and a plain property from then on. */
function defineParsedOnFirstRead(row: Record<string, unknown>, key: string, text: string): void {
  const settle = (value: unknown) =>
    Object.defineProperty(row, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(row, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value: unknown = JSON.parse(text);
      settle(value);
      return value;
    },
    set: settle,
  });
}

/** The ecosystems whose trust lists open, unexpired sessions are verified against (read at start, across organisations). */
export async function listTrustEcosystemsOfOpenSessions(db: VerifierDb, params: { now: Date }): Promise<string[]> {
  const t = presentationSessions;
  const rows = await db
    .selectDistinct({ ecosystemId: t.trustEcosystemId })
    .from(t)
    .where(and(isNotNull(t.trustEcosystemId), inArray(t.state, [...OPEN_STATES]), gt(t.expiresAt, params.now)));
  return rows.map((row) => row.ecosystemId).filter((id): id is string => id !== null);
}
