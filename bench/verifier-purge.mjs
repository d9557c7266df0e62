// Benchmark (issue 15 item 2): the purge of presentation data must not slow the
// verification hot path by more than 10 % while it runs. Against the built verifier (a
// child process in production mode on PostgreSQL, PURGE_INTERVAL_SECONDS=1), with
// BENCH_PURGE_SESSIONS (default 1,000,000) verified sessions seeded in PostgreSQL, each
// with its result, every one past its data lifetime (`data_expires_at` an hour ago) and
// past retention (`created_at` 31 days ago): the purge has to strip the claims of every
// result and delete every session.
//  - baseline: whole verifications per second (create → the wallet fetches the request
//    object → direct_post → the relying party reads the result, as verifier-direct-post
//    phase d) with the backlog in the tables but the purge held off: this process holds
//    the purge's advisory lock (the key of services/verifier/src/db/personal-data-purge.ts),
//    so the service's runs skip, exactly as a second replica's would;
//  - during: the same load right after the lock is released, while the service purges.
// Target: during / baseline >= 0.9. The backlog is counted before and after the measured
// window: the purge must have deleted some of it and not have finished (it ran throughout).
//
// Env: BENCH_PURGE_SESSIONS (1000000), BENCH_CONNECTIONS (32), BENCH_DURATION (seconds per
// measured window, 10), BENCH_WARMUP_SESSIONS (300), BENCH_DATABASE_URL.
import postgres from 'postgres';
import { runFlows } from './lib/flow-load.mjs';
import { writeResult } from './lib/results.mjs';
import { createHolder, createIssuer, issuePid, PID_VCT, presentPid } from './lib/sd-jwt-issuer.mjs';
import { pidQuery, startVerifierBench } from './lib/verifier-setup.mjs';
import {
  createSessionStep,
  directPostStep,
  fetchRequestObjectStep,
  readResultStep,
} from './lib/verification-steps.mjs';

const PURGE_LOCK_KEY = 1_550_015_001;
const backlog = Number(process.env.BENCH_PURGE_SESSIONS ?? 1_000_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const warmup = Math.max(1, Math.ceil(Number(process.env.BENCH_WARMUP_SESSIONS ?? 300) / connections)) * connections;
const VERIFIER_ID = 'desk';

const issuer = await createIssuer();
const bench = await startVerifierBench({ env: { PURGE_INTERVAL_SECONDS: '1' } });
const sql = postgres(bench.databaseUrl, { max: 3, onnotice: () => {} });
const problems = [];

// ---- one whole verification, every answer checked (as verifier-direct-post phase d) ----------
const wallet = Array.from({ length: Math.max(1000, connections) }, () => {
  const holder = createHolder();
  return { holder, issued: issuePid(issuer, holder) };
});
let used = 0;
const answerStep = directPostStep(({ request }) => {
  const { holder, issued } = wallet[used++ % wallet.length];
  const presentation = presentPid(issued, holder, { nonce: request.nonce, aud: request.client_id });
  return {
    path: new URL(request.response_uri).pathname,
    body: new URLSearchParams({ vp_token: JSON.stringify({ pid: [presentation] }), state: request.state }).toString(),
  };
});
const steps = [
  createSessionStep(bench, { dcql: pidQuery(PID_VCT), verifierId: VERIFIER_ID }),
  fetchRequestObjectStep,
  answerStep,
  readResultStep(bench),
];
const settle = (name, run) => {
  if (run.failures > 0) problems.push(`(${name}): ${run.failures} failures: ${JSON.stringify(run.samples)}`);
  return run.failures === 0;
};

/** Results not purged yet, and sessions past retention not deleted yet. */
async function remaining() {
  const [row] =
    await sql`select (select count(*) from verifier.presentation_results where claims_state <> 'purged' and data_expires_at <= now())::int as results,
    (select count(*) from verifier.presentation_sessions where created_at < now() - interval '30 days')::int as sessions`;
  return row;
}

/** `count` copies of verified session `id` with its result, past their lifetime and retention, 100,000 per statement. */
async function seedBacklog(id, count) {
  const columns = async (table) =>
    (
      await sql`select column_name from information_schema.columns where table_schema = 'verifier' and table_name = ${table} order by ordinal_position`
    ).map((row) => row.column_name);
  const sessionColumns = await columns('presentation_sessions');
  const resultColumns = await columns('presentation_results');
  const sessionExpression = {
    id: 'gen_random_uuid()',
    authorization_request_id: `md5(random()::text || g::text) || g::text`,
    created_at: `now() - interval '31 days' - g * interval '1 millisecond'`,
  };
  const resultExpression = {
    session_id: 'copies.id',
    data_expires_at: `now() - interval '1 hour'`,
    read_expires_at: 'null',
    claims_state: `'full'`,
  };
  const sessionSelect = sessionColumns.map((c) => sessionExpression[c] ?? `s."${c}"`).join(', ');
  const resultSelect = resultColumns.map((c) => resultExpression[c] ?? `r."${c}"`).join(', ');
  const started = performance.now();
  for (let from = 1; from <= count; from += 100_000) {
    const last = Math.min(count, from + 99_999);
    await sql.unsafe(
      `with copies as (
         insert into verifier.presentation_sessions (${sessionColumns.map((c) => `"${c}"`).join(', ')})
         select ${sessionSelect} from verifier.presentation_sessions s, generate_series(${from}, ${last}) g where s.id = $1
         returning id
       )
       insert into verifier.presentation_results (${resultColumns.map((c) => `"${c}"`).join(', ')})
       select ${resultSelect} from copies, verifier.presentation_results r where r.session_id = $1`,
      [id],
    );
  }
  await sql.unsafe(
    'insert into verifier.session_counts (org_id, total) select org_id, count(*) from verifier.presentation_sessions group by org_id on conflict (org_id) do update set total = excluded.total',
  );
  await sql.unsafe('vacuum analyze verifier.presentation_sessions');
  await sql.unsafe('vacuum analyze verifier.presentation_results');
  console.log(
    `  seeded ${count} expired sessions with results in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

let releaseLock = () => {};
try {
  if ((await bench.call('POST', '/verifier', { verifierId: VERIFIER_ID })).status !== 201)
    throw new Error('verifier not created');
  const anchor = await bench.call('POST', '/trust-anchors', { certificatePem: issuer.caPem, label: 'bench issuer' });
  if (anchor.status !== 201) throw new Error(`trust anchor not added: ${JSON.stringify(anchor.body)}`);
  console.log(
    `\nverifier-purge: ${backlog} expired sessions; ${durationSeconds} s per window; ${connections} connections`,
  );

  // Hold the purge off (as another replica's batch would) until the baseline is measured.
  const locked = new Promise((resolveLocked, rejectLocked) => {
    sql
      .begin(async (tx) => {
        const [row] = await tx`select pg_try_advisory_xact_lock(${PURGE_LOCK_KEY}::bigint) as locked`;
        if (!row.locked) throw new Error('the purge lock is taken');
        await new Promise((release) => {
          releaseLock = release;
          resolveLocked();
        });
      })
      .catch(rejectLocked);
  });
  await locked;

  settle('warm-up', await runFlows({ url: bench.url, connections, steps, flows: warmup }));
  const [template] = await sql`select session_id from verifier.presentation_results limit 1`;
  await seedBacklog(template.session_id, backlog);
  const before = await remaining();
  console.log(`  backlog: ${before.results} results to purge, ${before.sessions} sessions past retention`);

  const baseline = await runFlows({ url: bench.url, connections, steps, durationSeconds });
  settle('baseline', baseline);
  const held = await remaining();
  if (held.results !== before.results)
    problems.push(`the purge ran while its lock was held: ${JSON.stringify({ before, held })}`);
  console.log(
    `  baseline (purge held off)   ${baseline.perSecond.toFixed(0).padStart(6)} verifications/s, p99 ${baseline.latencyP99Ms.toFixed(0)} ms`,
  );

  releaseLock();
  // The service's next run (within PURGE_INTERVAL_SECONDS) takes it from here.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const start = await remaining();
  const during = await runFlows({ url: bench.url, connections, steps, durationSeconds });
  settle('during purge', during);
  const end = await remaining();
  const purged = { results: start.results - end.results, sessions: start.sessions - end.sessions };
  console.log(
    `  during the purge            ${during.perSecond.toFixed(0).padStart(6)} verifications/s, p99 ${during.latencyP99Ms.toFixed(0)} ms; purged meanwhile ${purged.results} results, ${purged.sessions} sessions; left ${end.results} / ${end.sessions}`,
  );
  const ranThroughout = purged.results + purged.sessions > 0 && end.results + end.sessions > 0;
  if (!ranThroughout) problems.push(`the purge did not run throughout the window: ${JSON.stringify({ start, end })}`);
  const ratio = during.perSecond / baseline.perSecond;
  writeResult('verifier-purge', [
    {
      metric: `whole verifications/s while the purge works through ${backlog.toLocaleString('en')} expired sessions (${purged.results} results stripped and ${purged.sessions} sessions deleted in the ${durationSeconds} s window), ${connections} in flight`,
      value: during.perSecond.toFixed(0),
      baseline: `${baseline.perSecond.toFixed(0)} with the same tables, purge held off`,
      ratio,
      target: '>= 0.9',
      pass: problems.length === 0 && ranThroughout && ratio >= 0.9,
    },
  ]);
} finally {
  releaseLock();
  await sql.end();
  await bench.stop();
}
if (problems.length > 0) {
  console.error(`\nnot every answer was right:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
