// Benchmark (issue 12 item 5): what one verifier replica sustains, for a platform team
// sizing it. Measured over HTTP against the built verifier (a child process in production
// mode on PostgreSQL, with NATS when BENCH_NATS_URL is set: bench/lib/verifier-setup.mjs)
// by an independent wallet (bench/lib/sd-jwt-issuer.mjs, bench/lib/mdoc-issuer.mjs:
// node:crypto, @peculiar/x509 and @owf/mdoc, nothing of the service), each path against a
// baseline measured in the same run:
//  (a) sessions created (management API POST …/presentation) + request objects fetched by a
//      wallet (GET request_uri) per second ÷ node:crypto ES256 sign/s (target >= 0.05);
//  (b) SD-JWT VC presentations (x5c leaf under an organisation trust anchor, KB-JWT)
//      verified via direct_post per second ÷ (node:crypto ES256 verify/s ÷ 2: issuer
//      signature + KB-JWT) (target >= 0.25); informative: the same presentations verified
//      in-process by @sd-jwt/sd-jwt-vc alone (bench/lib/sd-jwt-library-verify.mjs);
//  (c) the same for mdoc DeviceResponses (issuer signature + device signature over the
//      OpenID4VP 1.0 SessionTranscript) ÷ (ES256 verify/s ÷ 2) (target >= 0.25);
//  (d) whole verifications per second: create → the wallet fetches the request object → it
//      answers (direct_post) → the relying party reads the result (management API), all over
//      HTTP with BENCH_CONNECTIONS in flight (target >= 700/s; the ratio to ES256 verify/s ÷ 2
//      is for reference);
//  (m) what metrics cost (issue 16 item 5): the whole verifications of (d) on this verifier
//      (metrics on, /metrics scraped every second) and on a twin process with
//      METRICS_ENABLED=false (same database, keys and identity provider), in alternating
//      slices of BENCH_SLICE seconds (default 2) for BENCH_DURATION seconds each; the ratio is
//      on over off (target >= 0.95: at most 5 % overhead).
// (b) and (c) answer sessions created and fetched before the clock starts, with presentations
// built beforehand, one credential and holder key per session; (d) builds each answer inside
// the loop from a pool of issued credentials, signing only the KB-JWT. Every answer is checked
// (201 and a request_uri; the request object's nonce, state and response mode; 200 `{}`; the
// result ResponseVerified with the disclosed names; for (b) and (c) also every session
// ResponseVerified in the database), failures are counted and any failure exits 1. The wallet
// does not verify the request object's signature: that cost is the wallet's, not the verifier's.
//
// Env: BENCH_PHASES (comma list, default a,b,c,d,m), BENCH_SESSIONS (measured sessions of a, b
// and c, default 2000), BENCH_WARMUP_SESSIONS (300), BENCH_CONNECTIONS (32), BENCH_DURATION
// (seconds of d, default 10), BENCH_BASELINE_SECONDS (seconds of each in-process loop, 5),
// BENCH_DATABASE_URL, BENCH_NATS_URL, BENCH_PROFILE_DIR (CPU profiles of the verifier: the
// whole child with --cpu-prof, and verifier-phase-<x>.cpuprofile covering each measured phase
// alone). A subset of phases prints its rows but leaves bench/results/ as it is.
// BENCH_TRACING: `compare` runs the phases (default b,d) with tracing off and on in one run (ABBA,
// BENCH_TRACING_ROUNDS pairs, default 2)
// and prints the overhead (issue 16 item 5, bench/lib/tracing-overhead.mjs); `on` traces every
// request to a local OTLP collector stub (BENCH_OTLP_PROTOCOL, default http/protobuf).
import {
  createSessionStep,
  directPostStep,
  fetchRequestObjectStep,
  readResultStep as readResultStepOf,
} from './lib/verification-steps.mjs';
import postgres from 'postgres';
import { measureEs256Sign, measureEs256Verify } from './lib/crypto-baselines.mjs';
import { runFlows } from './lib/flow-load.mjs';
import { measureAsyncLoop } from './lib/measure-loop.mjs';
import { cpuMicros } from './lib/process-cpu.mjs';
import { createDevice, issueMdl, mdlQuery, presentMdl } from './lib/mdoc-issuer.mjs';
import { startProfileWindow } from './lib/profile-window.mjs';
import { writeResult } from './lib/results.mjs';
import { createLibraryVerifier } from './lib/sd-jwt-library-verify.mjs';
import { createHolder, createIssuer, issuePid, PID_VCT, presentPid } from './lib/sd-jwt-issuer.mjs';
import { pidQuery, startVerifierBench } from './lib/verifier-setup.mjs';
import { startOtlpCollectorStub } from './lib/otlp-collector-stub.mjs';
import { compareTracingOverhead, writeRows } from './lib/tracing-overhead.mjs';

const ALL_PHASES = ['a', 'b', 'c', 'd', 'm'];
const phases = (process.env.BENCH_PHASES ?? ALL_PHASES.join(','))
  .split(',')
  .map((phase) => phase.trim())
  .filter(Boolean);
if (phases.length === 0 || phases.some((phase) => !ALL_PHASES.includes(phase))) {
  console.error(
    `BENCH_PHASES must list some of ${ALL_PHASES.join(',')}; got ${JSON.stringify(process.env.BENCH_PHASES)}`,
  );
  process.exit(2);
}
if (process.env.BENCH_TRACING === 'compare') {
  const comparedPhases = process.env.BENCH_PHASES ? phases : ['b', 'd'];
  process.exit((await compareTracingOverhead(import.meta.url, comparedPhases)) ? 0 : 1);
}
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
// Counts of flows are whole multiples of the connections, so every connection ends on a whole flow.
const roundUp = (count) => Math.max(1, Math.ceil(count / connections)) * connections;
const sessions = roundUp(Number(process.env.BENCH_SESSIONS ?? 2000));
const warmup = roundUp(Number(process.env.BENCH_WARMUP_SESSIONS ?? 300));
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const baselineSeconds = Number(process.env.BENCH_BASELINE_SECONDS ?? 5);
const VERIFIER_ID = 'desk';

const issuer = await createIssuer();
const collector =
  process.env.BENCH_TRACING === 'on'
    ? await startOtlpCollectorStub({ protocol: process.env.BENCH_OTLP_PROTOCOL })
    : undefined;
const bench = await startVerifierBench({ env: collector?.env ?? {} });
const sql = postgres(bench.databaseUrl, { max: 1, onnotice: () => {} });
/** Why each failed phase failed; any entry makes the run exit 1. */
const problems = [];
const rows = [];

// ---- the relying party's and the wallet's requests, each answer checked ------------------------
const createStep = (dcql) => createSessionStep(bench, { dcql, verifierId: VERIFIER_ID });
const fetchStep = fetchRequestObjectStep;
const respondStep = directPostStep;
const readResultStep = readResultStepOf(bench);

/** `count` sessions for `dcql`, created and fetched by the wallet over HTTP: [{ session, request, signingInputLength }]. */
async function prepareSessions(count, dcql, over = connections) {
  const prepared = [];
  const collect = {
    ...fetchStep,
    check: (status, text, context) => {
      const wrong = fetchStep.check(status, text, context);
      if (wrong === undefined) prepared.push({ ...context });
      return wrong;
    },
  };
  const run = await runFlows({ url: bench.url, connections: over, steps: [createStep(dcql), collect], flows: count });
  if (run.failures > 0 || prepared.length < count)
    throw new Error(`preparing ${count} sessions failed: ${run.failures} failures, ${JSON.stringify(run.samples)}`);
  return prepared.slice(0, count);
}

const formBody = (vpToken, state) => new URLSearchParams({ vp_token: JSON.stringify(vpToken), state }).toString();

/** The SD-JWT VC answer to a prepared session: a fresh holder and credential, a KB-JWT for its nonce and client_id. */
function answerWithPid({ request }) {
  const holder = createHolder();
  const presentation = presentPid(issuePid(issuer, holder), holder, { nonce: request.nonce, aud: request.client_id });
  return {
    path: new URL(request.response_uri).pathname,
    body: formBody({ pid: [presentation] }, request.state),
    presentation,
    nonce: request.nonce,
  };
}

/** The mdoc answer to a prepared session: a fresh device key and mDL, the device signature over its SessionTranscript. */
async function answerWithMdl({ request }) {
  const device = createDevice();
  const presentation = await presentMdl(await issueMdl(issuer, device), device, {
    clientId: request.client_id,
    responseUri: request.response_uri,
    nonce: request.nonce,
  });
  return { path: new URL(request.response_uri).pathname, body: formBody({ mdl: [presentation] }, request.state) };
}

/** Runs `measure` inside a CPU profile window of the verifier (BENCH_PROFILE_DIR). */
async function profiled(phase, measure) {
  const window = await startProfileWindow(bench.child, `verifier-phase-${phase}`);
  const result = await measure();
  const path = await window.stop();
  if (path) console.log(`  profile of phase (${phase}): ${path}`);
  return result;
}

/** Records a phase's failures; true when it had none. */
function settle(phase, run, expected) {
  const ok = run.failures === 0 && (expected === undefined || run.completed === expected);
  if (!ok)
    problems.push(
      `(${phase}): ${run.completed} of ${expected ?? run.started} complete, ${run.failures} failures: ${JSON.stringify(run.samples)}`,
    );
  return ok;
}

const describe = (run) =>
  `${run.completed}/${run.started} in ${run.seconds.toFixed(1)} s, p99 ${run.latencyP99Ms} ms, ${run.failures} failures, load generator ${(run.loadGeneratorCpu * 100).toFixed(0)} % of a core`;

/** Answers prepared sessions with pre-built answers (warm-up first), then checks each session is ResponseVerified in the database. */
async function answerPrepared(phase, warmupAnswers, measuredAnswers, preparedSessions) {
  const answerAll = (answers) => {
    let next = 0;
    return runFlows({
      url: bench.url,
      connections,
      steps: [respondStep(() => answers[next++])],
      flows: answers.length,
    });
  };
  const warm = await answerAll(warmupAnswers);
  settle(`${phase} warm-up`, warm, warmupAnswers.length);
  const run = await profiled(phase, () => answerAll(measuredAnswers));
  const ids = preparedSessions.map(({ session }) => session.id);
  const [{ verified }] =
    await sql`select count(*)::int as verified from verifier.presentation_sessions where state = 'ResponseVerified' and id in ${sql(ids)}`;
  const ok = settle(phase, run, measuredAnswers.length) && verified === ids.length;
  if (verified !== ids.length)
    problems.push(`(${phase}): ${verified} of ${ids.length} sessions ResponseVerified in the database`);
  return { run, ok, verified };
}

/** Answers for (d) and (m): issued credentials reused across sessions, each answer signing only its KB-JWT. */
function answerFromPool() {
  const wallet = Array.from({ length: Math.max(1000, connections) }, () => {
    const holder = createHolder();
    return { holder, issued: issuePid(issuer, holder) };
  });
  let used = 0;
  const answer = ({ request }) => {
    const { holder, issued } = wallet[used++ % wallet.length];
    const presentation = presentPid(issued, holder, { nonce: request.nonce, aud: request.client_id });
    return { path: new URL(request.response_uri).pathname, body: formBody({ pid: [presentation] }, request.state) };
  };
  return answer;
}

/** Scrapes `url` every second until stopped, as Prometheus would (more often); a bad scrape is a problem of the run. */
function startScraping(url) {
  let scrapes = 0;
  const timer = setInterval(() => {
    fetch(url).then(
      async (response) => {
        if (response.status !== 200 || !(await response.text()).includes('tessera_verifier_presentations_total'))
          problems.push(`(m): a scrape of ${url} answered ${response.status}`);
        scrapes++;
      },
      (error) => problems.push(`(m): a scrape of ${url} failed: ${error.message}`),
    );
  }, 1000);
  return () => {
    clearInterval(timer);
    return scrapes;
  };
}

/** (m): whole verifications with metrics on (this verifier, scraped) and off (a twin), in alternating slices. */
async function measureMetricsCost(steps) {
  const sliceSeconds = Math.min(durationSeconds, Number(process.env.BENCH_SLICE ?? 2));
  const twin = await bench.startTwin({ METRICS_ENABLED: 'false' });
  try {
    settle('m warm-up (metrics off)', await runFlows({ url: twin.url, connections, steps, flows: warmup }), warmup);
    const sides = { on: { completed: 0, seconds: 0, cpu: 0 }, off: { completed: 0, seconds: 0, cpu: 0 } };
    const pids = { on: bench.child.pid, off: twin.child.pid };
    const stopScraping = startScraping(bench.metricsUrl);
    const slices = Math.max(1, Math.round(durationSeconds / sliceSeconds));
    for (let i = 0; i < slices; i++) {
      for (const side of i % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        const cpuBefore = cpuMicros(pids[side]);
        const run = await runFlows({
          url: side === 'on' ? bench.url : twin.url,
          connections,
          steps,
          durationSeconds: sliceSeconds,
        });
        settle(`m (metrics ${side})`, run);
        sides[side].completed += run.perSecond * run.seconds;
        sides[side].seconds += run.seconds;
        sides[side].cpu += (cpuMicros(pids[side]) ?? Number.NaN) - (cpuBefore ?? Number.NaN);
      }
    }
    const scrapes = stopScraping();
    const on = sides.on.completed / sides.on.seconds;
    const off = sides.off.completed / sides.off.seconds;
    const ratio = on / off;
    // Server CPU per verification: less disturbed by other work on the machine than the rates.
    const cpuOn = sides.on.cpu / sides.on.completed;
    const cpuOff = sides.off.cpu / sides.off.completed;
    console.log(
      `  (m) metrics on vs off            ${on.toFixed(0).padStart(7)} vs ${off.toFixed(0)} verifications/s, ratio ${ratio.toFixed(3)} = ${((1 - ratio) * 100).toFixed(1)} % overhead (${scrapes} scrapes)`,
    );
    if (Number.isFinite(cpuOn))
      console.log(
        `      verifier CPU per verification: ${cpuOn.toFixed(0)} µs on vs ${cpuOff.toFixed(0)} µs off (${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`,
      );
    return {
      metric: `(m) whole verifications/s with metrics on (scraped every second) over metrics off (METRICS_ENABLED=false twin), alternating ${sliceSeconds} s slices, ${durationSeconds} s each${Number.isFinite(cpuOn) ? ` (verifier CPU ${cpuOn.toFixed(0)} vs ${cpuOff.toFixed(0)} µs/verification)` : ''}`,
      value: on.toFixed(0),
      baseline: `${off.toFixed(0)} (metrics off)`,
      ratio,
      target: '>= 0.95',
      pass: ratio >= 0.95,
    };
  } finally {
    await twin.stop();
  }
}

try {
  if ((await bench.call('POST', '/verifier', { verifierId: VERIFIER_ID })).status !== 201)
    throw new Error('verifier not created');
  // The organisation's trust anchor: the issuer's CA; its leaf signs both the SD-JWT VCs and the mdocs.
  const anchor = await bench.call('POST', '/trust-anchors', { certificatePem: issuer.caPem, label: 'bench issuer' });
  if (anchor.status !== 201) throw new Error(`trust anchor not added: ${JSON.stringify(anchor.body)}`);

  // ---- baselines: node:crypto ES256 on this process's core, over inputs of the real sizes ----------
  const [sample] = await prepareSessions(1, pidQuery(PID_VCT), 1);
  const samplePid = answerWithPid(sample).presentation;
  const [issuerJwt] = samplePid.split('~');
  const kbJwt = samplePid.slice(samplePid.lastIndexOf('~') + 1);
  const es256Sign = measureEs256Sign(baselineSeconds, [sample.signingInputLength]);
  const es256Verify = measureEs256Verify(baselineSeconds, [issuerJwt.lastIndexOf('.'), kbJwt.lastIndexOf('.')]);
  const verifyBound = es256Verify / 2;
  console.log(
    `\nverifier-direct-post: phases ${phases.join(',')}; ${sessions} sessions (+${warmup} warm-up) in a, b, c; (d) ${durationSeconds} s; ${connections} connections`,
  );
  console.log(
    `  node:crypto ES256 sign ${es256Sign.toFixed(0)}/s, verify ${es256Verify.toFixed(0)}/s (÷ 2 = ${verifyBound.toFixed(0)}/s)`,
  );

  // ---- (a) create a session + the wallet fetches its request object --------------------------------
  if (phases.includes('a')) {
    const steps = [createStep(pidQuery(PID_VCT)), fetchStep];
    settle('a warm-up', await runFlows({ url: bench.url, connections, steps, flows: warmup }), warmup);
    const run = await profiled('a', () => runFlows({ url: bench.url, connections, steps, flows: sessions }));
    const ok = settle('a', run, sessions);
    const ratio = run.perSecond / es256Sign;
    console.log(
      `  (a) create + fetch request object ${run.perSecond.toFixed(0).padStart(7)} sessions/s  (${describe(run)})`,
    );
    rows.push({
      metric: `(a) sessions created + request objects fetched/s over HTTP (${sessions} sessions, ${connections} connections)`,
      value: run.perSecond.toFixed(0),
      baseline: `${es256Sign.toFixed(0)} node:crypto ES256 sign/s`,
      ratio,
      target: '>= 0.05',
      pass: ok && ratio >= 0.05,
    });
  }

  // ---- (b) SD-JWT VC presentations verified via direct_post -----------------------------------------
  if (phases.includes('b')) {
    const prepared = await prepareSessions(warmup + sessions, pidQuery(PID_VCT));
    const answers = prepared.map(answerWithPid);
    const { run, ok, verified } = await answerPrepared(
      'b',
      answers.slice(0, warmup),
      answers.slice(warmup),
      prepared.slice(warmup),
    );
    const ratio = run.perSecond / verifyBound;
    console.log(
      `  (b) SD-JWT VC direct_post        ${run.perSecond.toFixed(0).padStart(7)} presentations/s  (${describe(run)}; ${verified} ResponseVerified)`,
    );
    // The same presentations, verified by the SD-JWT library alone in this process.
    const verifyWithLibrary = createLibraryVerifier(issuer);
    const measured = answers.slice(warmup);
    const library = await measureAsyncLoop(baselineSeconds, (i) => verifyWithLibrary(measured[i % measured.length]));
    console.log(`      @sd-jwt/sd-jwt-vc alone       ${library.toFixed(0).padStart(7)} verifications/s in-process`);
    rows.push({
      metric: `(b) SD-JWT VC presentations (x5c, KB-JWT) verified/s via direct_post over HTTP (${sessions} sessions, ${connections} connections)`,
      value: run.perSecond.toFixed(0),
      baseline: `${verifyBound.toFixed(0)} (node:crypto ES256 verify/s ÷ 2)`,
      ratio,
      target: '>= 0.25',
      pass: ok && ratio >= 0.25,
    });
    rows.push({
      metric:
        '(b) the same, against @sd-jwt/sd-jwt-vc alone in-process (issuer signature + KB-JWT, no HTTP, no database)',
      value: run.perSecond.toFixed(0),
      baseline: `${library.toFixed(0)} library verifications/s`,
      ratio: run.perSecond / library,
      target: 'informative',
      pass: ok,
    });
  }

  // ---- (c) mdoc DeviceResponses verified via direct_post --------------------------------------------
  if (phases.includes('c')) {
    const prepared = await prepareSessions(warmup + sessions, mdlQuery());
    const answers = [];
    for (const item of prepared) answers.push(await answerWithMdl(item));
    const { run, ok, verified } = await answerPrepared(
      'c',
      answers.slice(0, warmup),
      answers.slice(warmup),
      prepared.slice(warmup),
    );
    const ratio = run.perSecond / verifyBound;
    console.log(
      `  (c) mdoc direct_post            ${run.perSecond.toFixed(0).padStart(7)} presentations/s  (${describe(run)}; ${verified} ResponseVerified)`,
    );
    rows.push({
      metric: `(c) mdoc DeviceResponses (x5chain, device signature) verified/s via direct_post over HTTP (${sessions} sessions, ${connections} connections)`,
      value: run.perSecond.toFixed(0),
      baseline: `${verifyBound.toFixed(0)} (node:crypto ES256 verify/s ÷ 2)`,
      ratio,
      target: '>= 0.25',
      pass: ok && ratio >= 0.25,
    });
  }

  // ---- (d) whole verifications: create → fetch → direct_post → read the result; (m) their metrics cost --
  if (phases.includes('d') || phases.includes('m')) {
    const steps = [createStep(pidQuery(PID_VCT)), fetchStep, respondStep(answerFromPool()), readResultStep];
    settle('d warm-up', await runFlows({ url: bench.url, connections, steps, flows: warmup }), warmup);
    if (phases.includes('d')) {
      const run = await profiled('d', () => runFlows({ url: bench.url, connections, steps, durationSeconds }));
      const ok = settle('d', run);
      console.log(
        `  (d) whole verifications         ${run.perSecond.toFixed(0).padStart(7)} verifications/s  (${describe(run)})`,
      );
      rows.push({
        metric: `(d) whole verifications/s (create → fetch request object → direct_post → read result) over HTTP, ${connections} in flight, ${durationSeconds} s`,
        value: run.perSecond.toFixed(0),
        baseline: `${verifyBound.toFixed(0)} (node:crypto ES256 verify/s ÷ 2), for reference`,
        ratio: run.perSecond / verifyBound,
        target: '>= 700/s',
        pass: ok && run.perSecond >= 700,
      });
    }
    if (phases.includes('m')) rows.push(await measureMetricsCost(steps));
  }
} finally {
  await sql.end();
  await bench.stop();
  await collector?.stop();
}
if (collector)
  console.log(
    `  tracing on: the collector stub received ${collector.stats.exports} OTLP exports, ${(collector.stats.bytes / 1e6).toFixed(1)} MB`,
  );
writeRows(rows);

console.log('');
if (phases.length === ALL_PHASES.length) writeResult('verifier-direct-post', rows);
else
  for (const row of rows)
    console.log(
      `  ${row.pass ? 'PASS' : 'MISS'}  ${row.metric}: ${row.value} vs ${row.baseline} → ratio ${row.ratio.toFixed(3)} (target ${row.target})`,
    );
if (problems.length > 0) {
  console.error(`\nnot every answer was right:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
