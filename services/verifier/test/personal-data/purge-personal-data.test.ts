import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, vi } from 'vitest';
import { runRawStatement, type Logger } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
// The purge is about what the rows hold at rest; a backlog of thousands of results, a lock held by another replica and deadlines due by PostgreSQL's clock are states no use case produces in a test's time (src/db).
import { tryLockPurge } from '../../src/db/personal-data-purge.js';
import {
  presentationResults,
  presentationSessions,
  sessionCounts,
  type PresentationResultRow,
} from '../../src/db/schema.js';
import { createDataKeyRing } from '../../src/state/data-key-ring.js';
import { openPresentationResult } from '../../src/use-cases/steps/presentation-data.js';
import { purgePersonalData } from '../../src/use-cases/purge-personal-data.js';
import { answerRedirect, issueCredential, presentAll } from '../support/crafted-answers.js';
import type { E2e } from '../support/e2e.js';
import { e2eTest, harnessFixture } from '../support/fixtures.js';
import { createHarness, type Harness } from '../support/harness.js';
import { PID_VCT } from '../support/issuers.js';
import { ORG } from '../support/management.js';

// The purge job over real PostgreSQL, run directly with the app's clock moved (the
// app's own timer is set to a day so it never runs during a test): each deadline
// deletes what it must from the stored rows, sessions go after SESSION_RETENTION_DAYS,
// two replicas on one database never purge at once, and a runner that stops leaves
// its work to the next.
const CONFIG = { PURGE_INTERVAL_SECONDS: '86400' };
const test = e2eTest({ config: CONFIG }).extend('replica', { scope: 'file' }, async ({ harness }, hooks) =>
  harnessFixture({
    config: { ...CONFIG, KEY_ENCRYPTION_KEY: harness.config.KEY_ENCRYPTION_KEY! },
    databaseUrl: harness.testDb.url,
  })({}, hooks),
);
const DAY_MS = 86_400_000;
const DISCLOSED = { given_name: 'Erika', family_name: 'Mustermann' };
const pidQuery = (claims: Array<Record<string, unknown>>) => ({
  combine: 'all',
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims }],
});
const READ_ONCE = pidQuery([{ path: ['given_name'] }, { path: ['family_name'], intent_to_retain: false }]);
const MIXED = pidQuery([{ path: ['given_name'], intent_to_retain: true }, { path: ['family_name'] }]);

async function verifiedSession(e: E2e, dcql: unknown) {
  const session = await e.createSession({ dcql, responseMode: 'direct_post' });
  const answered = await answerRedirect(e, session, 'pid', async (holder, facts) =>
    presentAll(await issueCredential(e.issuer, holder, { disclosable: DISCLOSED }))(holder, facts),
  );
  expect(answered.status).toBe(200);
  return session.id;
}

/** What PostgreSQL holds of a result: the row as text (every column: claims are sealed, so never in it), or undefined. */
async function storedResult(h: Harness, sessionId: string) {
  const [row] = await h.testDb.database.db
    .select()
    .from(presentationResults)
    .where(eq(presentationResults.sessionId, sessionId));
  return row ? { row, text: JSON.stringify(row) } : undefined;
}

/** A stored view opened with the organisation's data key, as text ('' when its column is gone). */
async function openedView(h: Harness, row: PresentationResultRow, view: 'full' | 'retained'): Promise<string> {
  if ((view === 'full' ? row.sealedPresentations : row.sealedRetainedPresentations) === null) return '';
  const ring = createDataKeyRing({
    db: h.testDb.database.db,
    keyEncryptionKey: h.keyEncryptionKey,
    clock: () => new Date(),
  });
  return JSON.stringify((await openPresentationResult(ring, row, view)).presentations);
}

/** No claim value left in any column, sealed or not; the plain summary still says what was verified. */
function expectNoClaimsLeft(row: PresentationResultRow): void {
  expect(row).toMatchObject({
    claimsState: 'purged',
    sealedPresentations: null,
    sealedRetainedPresentations: null,
    sealedCredentialSets: null,
    presentations: null,
    credentialSets: null,
  });
  expect(row.presentationSummary![0]).toEqual({
    credentialQueryId: 'pid',
    format: 'dc+sd-jwt',
    vct: PID_VCT,
    issuer: expect.any(String),
    holderBinding: true,
  });
}

/** One purge run of `h`'s replica at `offsetMs` on its clock. */
function purgeAt(
  h: Harness,
  offsetMs: number,
  options: { batchSize?: number; maxBatches?: number; logger?: Logger } = {},
) {
  h.clock.offsetMs = offsetMs;
  const clock = () => new Date(Date.now() + h.clock.offsetMs);
  return purgePersonalData(
    { db: h.testDb.database.db, clock, logger: options.logger ?? silentLogger() },
    {
      retentionDays: h.config.SESSION_RETENTION_DAYS,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.maxBatches ? { maxBatches: options.maxBatches } : {}),
    },
  );
}

/** `count` copies of verified session `id` (new ids, same nonce), with their results: the backlog of a busy platform, inserted in two statements. */
async function cloneVerifiedSessions(h: Harness, id: string, count: number): Promise<void> {
  const db = h.testDb.database.db;
  await runRawStatement(
    db,
    `insert into "verifier"."presentation_sessions"
     select copy.* from "verifier"."presentation_sessions" s, generate_series(1, $2::int) n,
       lateral jsonb_populate_record(null::"verifier"."presentation_sessions", to_jsonb(s) || jsonb_build_object('id', gen_random_uuid(), 'authorization_request_id', md5(random()::text || n::text))) copy
     where s.id = $1::uuid`,
    [id, count],
  );
  await runRawStatement(
    db,
    `insert into "verifier"."presentation_results"
     select copy.* from "verifier"."presentation_results" r
       join "verifier"."presentation_sessions" seed on seed.id = r.session_id
       join "verifier"."presentation_sessions" s on s.nonce = seed.nonce and s.id <> seed.id,
       lateral jsonb_populate_record(null::"verifier"."presentation_results", to_jsonb(r) || jsonb_build_object('session_id', s.id)) copy
     where r.session_id = $1::uuid`,
    [id],
  );
  await runRawStatement(db, `update "verifier"."session_counts" set total = total + $2::int where org_id = $1`, [
    ORG,
    count,
  ]);
}

/** Results of `id` and its copies whose claims are not all gone yet. */
async function unpurgedCopies(h: Harness, id: string): Promise<number> {
  const [row] = await runRawStatement<{ n: number }>(
    h.testDb.database.db,
    `select count(*)::int as n from "verifier"."presentation_results" r join "verifier"."presentation_sessions" s on s.id = r.session_id
     where r.claims_state <> 'purged' and s.nonce = (select nonce from "verifier"."presentation_sessions" where id = $1::uuid)`,
    [id],
  );
  return row!.n;
}

describe('the purge job', () => {
  afterEach<{ harness: Harness }>(({ harness }) => {
    harness.clock.offsetMs = 0;
  });

  test('deletes read-once claims after the read grace, every claim after the TTL, the session after SESSION_RETENTION_DAYS; logs counts only', async ({
    e2e: e,
    harness: h,
  }) => {
    const readOnce = await verifiedSession(e, READ_ONCE);
    const mixed = await verifiedSession(e, MIXED);
    const unread = await verifiedSession(e, READ_ONCE);
    for (const id of [readOnce, mixed]) expect((await e.readResult(id)).status).toBe(200);
    for (const id of [readOnce, mixed, unread]) {
      const stored = (await storedResult(h, id))!;
      expect(stored.text).not.toContain('Mustermann');
      expect(await openedView(h, stored.row, 'full')).toContain('Mustermann');
    }

    // Within the grace nothing goes.
    expect(await purgeAt(h, 30_000)).toEqual({
      ran: true,
      readOnceClaims: 0,
      expiredClaims: 0,
      sessions: 0,
      more: false,
    });

    const lines: unknown[] = [];
    const logger = { ...silentLogger(), info: (...args: unknown[]) => void lines.push(args) } as unknown as Logger;
    expect(await purgeAt(h, 61_000, { logger })).toEqual({
      ran: true,
      readOnceClaims: 2,
      expiredClaims: 0,
      sessions: 0,
      more: false,
    });
    expect(JSON.stringify(lines)).toContain('"readOnceClaims":2');
    for (const id of [readOnce, mixed, unread]) expect(JSON.stringify(lines)).not.toContain(id);
    expect(JSON.stringify(lines)).not.toContain('Erika');

    // What was verified stays, in the plain summary: format, type, issuer, trust.
    expectNoClaimsLeft((await storedResult(h, readOnce))!.row);
    const kept = (await storedResult(h, mixed))!;
    expect(kept.row).toMatchObject({ claimsState: 'retained', sealedPresentations: null });
    expect(await openedView(h, kept.row, 'retained')).toContain('Erika');
    expect(await openedView(h, kept.row, 'retained')).not.toContain('Mustermann');
    expect(await openedView(h, (await storedResult(h, unread))!.row, 'full')).toContain('Mustermann');
    expect((await e.readResult(readOnce)).status).toBe(410);
    expect((await e.readResult(mixed)).body.data.presentations[0].claims).toEqual({ given_name: 'Erika' });

    // The TTL: no claim value anywhere; the session still reads verified.
    expect(await purgeAt(h, DAY_MS + 1000)).toMatchObject({ readOnceClaims: 0, expiredClaims: 2, sessions: 0 });
    for (const id of [readOnce, mixed, unread]) {
      expectNoClaimsLeft((await storedResult(h, id))!.row);
      expect((await e.readResult(id)).status).toBe(410);
      expect((await e.readSession(id)).state).toBe('ResponseVerified');
    }

    // Retention: the records go, with their results, and the organisation's count drops.
    const db = h.testDb.database.db;
    const [before] = await db.select().from(sessionCounts).where(eq(sessionCounts.orgId, ORG));
    const report = await purgeAt(h, 30 * DAY_MS + 1000);
    expect(report.sessions).toBe(before!.total);
    expect(
      await db
        .select()
        .from(presentationSessions)
        .where(inArray(presentationSessions.id, [readOnce, mixed, unread])),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(presentationResults)
        .where(inArray(presentationResults.sessionId, [readOnce, mixed, unread])),
    ).toEqual([]);
    expect((await db.select().from(sessionCounts).where(eq(sessionCounts.orgId, ORG)))[0]!.total).toBe(0);
    const gone = await h.call('GET', `/v1/orgs/${ORG}/oid4vp/verifier-presentation?id=${readOnce}`, {
      headers: await h.auth(ORG),
    });
    expect(gone.status).toBe(404);
  });

  test('two replicas on one database: one purges at a time (advisory lock); together they purge each row once, in bounded batches', async ({
    e2e: e,
    harness: h,
    replica,
  }) => {
    const seed = await verifiedSession(e, READ_ONCE);
    await cloneVerifiedSessions(h, seed, 2999);
    const db = h.testDb.database.db;

    // While one replica's batch holds the lock, the other's run does nothing.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      expect(await tryLockPurge(tx)).toBe(true);
      locked();
      await released;
    });
    await holding;
    expect(await purgeAt(replica, DAY_MS + 1000)).toEqual({
      ran: false,
      readOnceClaims: 0,
      expiredClaims: 0,
      sessions: 0,
      more: false,
    });
    expect((await storedResult(h, seed))!.row.claimsState).toBe('full');
    release();
    await holder;

    // Both at once, 100 rows a statement: every result purged exactly once between them.
    const [first, second] = await Promise.all([
      purgeAt(h, DAY_MS + 1000, { batchSize: 100, maxBatches: 100 }),
      purgeAt(replica, DAY_MS + 1000, { batchSize: 100, maxBatches: 100 }),
    ]);
    expect(first.expiredClaims + second.expiredClaims).toBe(3000);
    expect(await unpurgedCopies(h, seed)).toBe(0);
  });

  test('restart-safe: a run that stops with work left leaves it in PostgreSQL; a replica started later finishes it with its own job, which expires open sessions past their end too', async ({
    e2e: e,
    harness: h,
  }) => {
    const seed = await verifiedSession(e, READ_ONCE);
    await cloneVerifiedSessions(h, seed, 499);
    const unpurged = () => unpurgedCopies(h, seed);
    // Due by the real clock, so the next replica's job (which runs at its start) finds them.
    await runRawStatement(
      h.testDb.database.db,
      `update "verifier"."presentation_results" set data_expires_at = now() - interval '1 second' where claims_state <> 'purged'`,
      [],
    );
    expect(await unpurged()).toBe(500);
    const partial = await purgeAt(h, 0, { batchSize: 100, maxBatches: 2 });
    expect(partial).toMatchObject({ ran: true, expiredClaims: 200, more: true });
    expect(await unpurged()).toBe(300);

    // An open session nobody reads, past its end: the same job expires it (the row is read directly, since a read through the API would expire it itself).
    const open = await e.createSession({ dcql: READ_ONCE, responseMode: 'direct_post' });
    await runRawStatement(
      h.testDb.database.db,
      `update "verifier"."presentation_sessions" set expires_at = now() - interval '1 second' where id = $1::uuid`,
      [open.id],
    );
    const storedState = async () =>
      (await h.testDb.database.db.select().from(presentationSessions).where(eq(presentationSessions.id, open.id)))[0]!
        .state;
    expect(await storedState()).toBe('RequestCreated');

    const restarted = await createHarness({
      config: { ...CONFIG, KEY_ENCRYPTION_KEY: h.config.KEY_ENCRYPTION_KEY! },
      databaseUrl: h.testDb.url,
    });
    try {
      await vi.waitFor(async () => expect(await unpurged()).toBe(0), { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => expect(await storedState()).toBe('Error'), { timeout: 10_000, interval: 50 });
    } finally {
      await restarted.close();
    }
  });
});
