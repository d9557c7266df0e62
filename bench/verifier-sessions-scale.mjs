// Benchmark (issue 7): verifier session lookups and session lists as the table grows.
//  - Wallet endpoint GET /oid4vp/authorization-requests/{id} (session lookup by
//    authorizationRequestId, then a freshly signed request object) over random ids of
//    the stored set: 1,000,000 sessions against 1,000 (req/s ratio, target >= 0.8;
//    p95/p99 reported).
//  - Management list GET /v1/orgs/{orgId}/oid4vp/verifier-presentation (first page,
//    default size) with 100,000 sessions of the organisation against 1,000 (p95
//    latency ratio, target <= 1.5).
// Sessions are seeded in PostgreSQL in bulk (INSERT … SELECT … generate_series) as
// copies of a real session created through the API and fetched once (state
// RequestUriRetrieved, so re-fetching writes nothing in either run), each with its own
// id and authorizationRequestId (43-character base64url, like the service's; URIs
// rewritten to match) and an earlier created_at. VACUUM ANALYZE after each seeding
// (the steady state autovacuum reaches).
//
// Env: BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (32),
// BENCH_SCALE_SESSIONS (1000000), BENCH_SCALE_ORG_SESSIONS (100000), BENCH_DATABASE_URL.
import { createHash, randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { runTimedLoad } from './lib/load-latency.mjs';
import { writeResult } from './lib/results.mjs';
import { createSession, fetchRequestObject, pidQuery, startVerifierBench } from './lib/verifier-setup.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const small = 1000;
const large = Number(process.env.BENCH_SCALE_SESSIONS ?? 1_000_000);
const orgLarge = Number(process.env.BENCH_SCALE_ORG_SESSIONS ?? 100_000);
const salt = randomBytes(8).toString('hex');
/** authorizationRequestId of copy g, computed the same way in SQL and here. */
const requestIdOf = (g) => createHash('sha256').update(`${salt}:${g}`).digest('base64url');

const OTHER_ORG = 'org-bench-others';
const bench = await startVerifierBench({ otherOrgs: [OTHER_ORG] });
const sql = postgres(bench.databaseUrl, { max: 2, onnotice: () => {} });
const runs = {};
let seeded = 1; // copies are numbered 1…seeded-1
try {
  /** A real session of `org` (its own verifier and request-signing key), fetched once by a wallet. */
  async function templateOf(org) {
    if ((await bench.call('POST', '/verifier', { verifierId: 'desk' }, org)).status !== 201)
      throw new Error('verifier not created');
    const session = await createSession(
      bench,
      'desk',
      { dcql: pidQuery('https://example.eu/pid'), responseMode: 'direct_post', expiresInSeconds: 86400 },
      org,
    );
    await fetchRequestObject(bench.url, session.authorizationRequestId);
    return session.id;
  }
  const templates = { [bench.orgId]: await templateOf(bench.orgId), [OTHER_ORG]: await templateOf(OTHER_ORG) };

  const columns = (
    await sql`select column_name from information_schema.columns where table_schema = 'verifier' and table_name = 'presentation_sessions' order by ordinal_position`
  ).map((row) => row.column_name);
  const rid = `rtrim(translate(encode(sha256(convert_to('${salt}:' || g, 'UTF8')), 'base64'), '+/', '-_'), '=')`;
  const expression = {
    id: 'gen_random_uuid()',
    authorization_request_id: rid,
    authorization_request_uri: `replace(s.authorization_request_uri, s.authorization_request_id, ${rid})`,
    request_uri: `replace(s.request_uri, s.authorization_request_id, ${rid})`,
    response_uri: `replace(s.response_uri, s.authorization_request_id, ${rid})`,
    created_at: `s.created_at - g * interval '1 millisecond'`,
  };
  const select = columns.map((column) => expression[column] ?? `s."${column}"`).join(', ');
  /** Copies g in [seeded, to) of `orgId`'s template session, 100,000 rows per statement. */
  async function seed(orgId, to) {
    const started = performance.now();
    for (let from = seeded; from < to; from += 100_000) {
      const last = Math.min(to, from + 100_000) - 1;
      await sql.unsafe(
        `insert into verifier.presentation_sessions (${columns.map((c) => `"${c}"`).join(', ')}) select ${select} from verifier.presentation_sessions s, generate_series(${from}, ${last}) g where s.id = $1`,
        [templates[orgId]],
      );
    }
    seeded = to;
    // Bulk copies bypass the service, so bring its per-organisation counts up to date as a migration would.
    await sql.unsafe(
      'insert into verifier.session_counts (org_id, total) select org_id, count(*) from verifier.presentation_sessions group by org_id on conflict (org_id) do update set total = excluded.total',
    );
    await sql.unsafe('vacuum analyze verifier.presentation_sessions');
    console.log(`seeded ${to} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const lookup = () => ({
    path: `/oid4vp/authorization-requests/${requestIdOf(1 + Math.floor(Math.random() * (seeded - 1)))}`,
  });
  const list = () => ({
    path: `${bench.managementPath}/verifier-presentation`,
    headers: { authorization: `Bearer ${bench.token}` },
  });
  const expectListTotal = async (total) => {
    const page = (await bench.call('GET', '/verifier-presentation')).body?.data;
    if (page?.totalItems !== total || page.data.length !== page.pageSize)
      throw new Error(`the list does not show ${total} sessions: ${JSON.stringify(page).slice(0, 300)}`);
  };
  const measure = async (name, pickRequest) => {
    await runTimedLoad({ url: bench.url, connections, durationSeconds: 2, pickRequest });
    runs[name] = await runTimedLoad({ url: bench.url, connections, durationSeconds: duration, pickRequest });
    const r = runs[name];
    console.log(
      `  ${name.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(1)} ms  p95 ${r.p95Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  other answers ${r.errors}`,
    );
  };

  await seed(bench.orgId, small);
  await expectListTotal(small);
  await measure('lookup, 1,000', lookup);
  await measure('list, 1,000 in org', list);
  await seed(bench.orgId, orgLarge);
  await expectListTotal(orgLarge);
  await measure(`list, ${orgLarge} in org`, list);
  await seed(OTHER_ORG, large);
  await measure(`lookup, ${large}`, lookup);
  await measure(`list, ${orgLarge} of ${large}`, list);
} finally {
  await sql.end();
  await bench.stop();
}

const lookupSmall = runs['lookup, 1,000'];
const lookupLarge = runs[`lookup, ${large}`];
const listSmall = runs['list, 1,000 in org'];
const listLarge = runs[`list, ${orgLarge} in org`];
const listLargeAll = runs[`list, ${orgLarge} of ${large}`];
const lookupRatio = lookupLarge.requestsPerSecond / lookupSmall.requestsPerSecond;
const listRatio = listLarge.p95Ms / listSmall.p95Ms;
const listAllRatio = listLargeAll.p95Ms / listSmall.p95Ms;
const ms = (r) => `p95 ${r.p95Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms`;
console.log(`\nverifier-sessions-scale: ${connections} connections, ${duration} s per run`);
writeResult('verifier-sessions-scale', [
  {
    metric: `wallet GET request object req/s, ${large} sessions (${ms(lookupLarge)})`,
    value: lookupLarge.requestsPerSecond.toFixed(0),
    baseline: `${lookupSmall.requestsPerSecond.toFixed(0)} with ${small} (${ms(lookupSmall)})`,
    ratio: lookupRatio,
    target: '>= 0.80',
    pass: lookupRatio >= 0.8,
  },
  {
    metric: `list sessions p95 ms, ${orgLarge} in the org (${listLarge.requestsPerSecond.toFixed(0)} req/s, p99 ${listLarge.p99Ms.toFixed(1)} ms)`,
    value: listLarge.p95Ms.toFixed(1),
    baseline: `${listSmall.p95Ms.toFixed(1)} with ${small} (${listSmall.requestsPerSecond.toFixed(0)} req/s)`,
    ratio: listRatio,
    target: '<= 1.50',
    pass: listRatio <= 1.5,
  },
  {
    metric: `list sessions p95 ms, ${orgLarge} in the org of ${large} in all (${listLargeAll.requestsPerSecond.toFixed(0)} req/s)`,
    value: listLargeAll.p95Ms.toFixed(1),
    baseline: `${listSmall.p95Ms.toFixed(1)} with ${small}`,
    ratio: listAllRatio,
    target: 'reported',
    pass: true,
  },
]);
const failures = Object.values(runs).reduce((sum, r) => sum + r.errors, 0);
if (failures > 0) {
  console.error(
    `the service answered ${failures} non-200 responses: ${JSON.stringify(Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.byStatus])))}`,
  );
  process.exit(1);
}
