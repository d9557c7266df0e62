// Benchmark (issue 5 item 9): verified SD-JWT VC presentations per second end to end
// through the wallet's response endpoint (POST /oid4vp/authorization-responses/{id},
// direct_post) on the production-configured verifier with PostgreSQL, against, in the
// same run, (a) the same kind of presentations verified in-process by the service's
// domain code (verifyPresentation; no HTTP, no database) and (b) the raw node:crypto
// ES256 verify rate divided by 2 (issuer signature + KB-JWT).
// Sessions are created and their request objects fetched (as a wallet would) before
// the clock starts; each session is answered exactly once, so the HTTP figure is
// "sessions verified per second" over a fixed set. Credentials carry no `status`.
//
// Env: BENCH_SESSIONS (measured sessions, default 2000), BENCH_WARMUP_SESSIONS (300),
// BENCH_CONNECTIONS (32), BENCH_DURATION (seconds of each in-process loop, default 10),
// BENCH_DATABASE_URL, BENCH_NATS_URL (optional), BENCH_PROFILE_DIR (CPU profile of the child).
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import postgres from 'postgres';
import autocannon from 'autocannon';
import { createStatusListChecker, verifyPresentation } from '../services/verifier/dist/verification/index.js';
import { writeResult } from './lib/results.mjs';
import { createHolder, createIssuer, issuePid, PID_VCT, presentPid } from './lib/sd-jwt-issuer.mjs';
import { createSession, fetchRequestObject, pidQuery, pool, startVerifierBench } from './lib/verifier-setup.mjs';

const measured = Number(process.env.BENCH_SESSIONS ?? 2000);
const warmup = Number(process.env.BENCH_WARMUP_SESSIONS ?? 300);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const loopSeconds = Number(process.env.BENCH_DURATION ?? 10);

const issuer = await createIssuer();
const dcql = pidQuery(PID_VCT);

// ---- HTTP, end to end -------------------------------------------------------------
const bench = await startVerifierBench();
let http;
let stored;
try {
  if ((await bench.call('POST', '/verifier', { verifierId: 'desk' })).status !== 201) throw new Error('verifier not created');
  const anchor = await bench.call('POST', '/trust-anchors', { certificatePem: issuer.caPem, label: 'bench issuer' });
  if (anchor.status !== 201) throw new Error(`trust anchor not added: ${JSON.stringify(anchor.body)}`);

  const total = warmup + measured;
  console.log(`creating ${total} direct_post sessions and fetching their request objects…`);
  const requests = await pool(total, 8, async () => {
    const session = await createSession(bench, 'desk', { dcql, responseMode: 'direct_post', expiresInSeconds: 3600 });
    return fetchRequestObject(bench.url, session.authorizationRequestId);
  });
  // One credential per session, presented with a KB-JWT bound to that session's nonce and client_id.
  const answers = requests.map((request) => {
    const holder = createHolder();
    const presentation = presentPid(issuePid(issuer, holder), holder, { nonce: request.nonce, aud: request.client_id });
    return {
      path: new URL(request.response_uri).pathname,
      body: new URLSearchParams({ vp_token: JSON.stringify({ pid: [presentation] }), state: request.state }).toString(),
    };
  });
  /** Posts answers[from, to) with autocannon, one request per session; counts the 200 `{}` answers. */
  async function answer(from, to) {
    let next = from;
    let ok = 0;
    const bad = [];
    const started = performance.now();
    await autocannon({
      url: bench.url,
      connections,
      amount: to - from,
      requests: [
        {
          setupRequest: (request) => {
            const item = answers[next++];
            if (!item) throw new Error('more requests than sessions');
            return { ...request, method: 'POST', path: item.path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: item.body };
          },
          onResponse: (status, body) => {
            if (status === 200 && body === '{}') ok += 1;
            else if (bad.length < 5) bad.push(`${status} ${body}`);
          },
        },
      ],
    });
    const seconds = (performance.now() - started) / 1000;
    return { ok, sent: next - from, bad, perSecond: ok / seconds, seconds };
  }
  await answer(0, warmup);
  http = await answer(warmup, total);
  const sql = postgres(bench.databaseUrl, { max: 1, onnotice: () => {} });
  [stored] = await sql`select count(*)::int as results, (select count(*)::int from verifier.presentation_sessions where state = 'ResponseVerified') as verified from verifier.presentation_results`;
  await sql.end();
} finally {
  await bench.stop();
}

// ---- (a) in-process: the service's domain code, no HTTP, no database ----------------
const statusLists = createStatusListChecker({ timeoutMs: 5000, maxBodyBytes: 1024 * 1024, denyPrivateAddresses: false });
const clientId = 'x509_san_dns:localhost';
const inProcessSet = Array.from({ length: Math.min(measured, 1000) }, () => {
  const holder = createHolder();
  const nonce = randomBytes(32).toString('base64url');
  return { nonce, vpToken: JSON.stringify({ pid: [presentPid(issuePid(issuer, holder), holder, { nonce, aud: clientId })] }) };
});
const verifyOne = (item) =>
  verifyPresentation({
    vpToken: item.vpToken,
    dcqlQuery: dcql,
    clientId,
    nonce: item.nonce,
    responseUri: 'http://localhost/oid4vp/authorization-responses/bench',
    flow: { kind: 'redirect' },
    trust: { certificates: [issuer.caPem], dids: [] },
    statusLists,
    now: new Date(),
    kbMaxAgeSeconds: 300,
    clockSkewSeconds: 60,
  });
const first = await verifyOne(inProcessSet[0]);
if (!first.ok) throw new Error(`in-process verification failed: ${first.code} ${first.message}`);
async function loop(seconds, step) {
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < until) {
    await step(count);
    count += 1;
  }
  return count / ((performance.now() - started) / 1000);
}
await loop(2, (i) => verifyOne(inProcessSet[i % inProcessSet.length]));
const inProcess = await loop(loopSeconds, async (i) => {
  const result = await verifyOne(inProcessSet[i % inProcessSet.length]);
  if (!result.ok) throw new Error(`in-process verification failed: ${result.code}`);
});

// ---- (b) raw node:crypto ES256 verify, same-size inputs, ÷ 2 ---------------------------
const sample = inProcessSet[0].vpToken;
const [issuerJwt] = JSON.parse(sample).pid[0].split('~');
const kbJwt = JSON.parse(sample).pid[0].split('~').at(-1);
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const inputs = [issuerJwt, kbJwt].map((jwt) => {
  const data = Buffer.from(randomBytes(jwt.lastIndexOf('.')).toString('base64url').slice(0, jwt.lastIndexOf('.')));
  return { data, signature: sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }) };
});
const rawStep = (i) => {
  const input = inputs[i % 2];
  if (!verify('sha256', input.data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, input.signature)) throw new Error('raw verify failed');
};
await loop(1, rawStep);
const rawVerifies = await loop(loopSeconds, rawStep);
const rawBound = rawVerifies / 2;

// ---- report ------------------------------------------------------------------------------
const httpRatio = http.perSecond / inProcess;
const boundRatio = inProcess / rawBound;
const allOk = http.ok === measured && http.sent === measured && stored.results === warmup + measured && stored.verified === warmup + measured;
console.log(`\nverifier-direct-post: ${measured} sessions (+${warmup} warm-up), ${connections} connections; in-process and raw loops ${loopSeconds} s`);
console.log(`  HTTP end to end (200 {})        ${http.perSecond.toFixed(0).padStart(8)} sessions/s   (${http.ok}/${measured} in ${http.seconds.toFixed(1)} s; results stored ${stored.results}, sessions verified ${stored.verified})`);
console.log(`  in-process verifyPresentation   ${inProcess.toFixed(0).padStart(8)} verifications/s`);
console.log(`  raw ES256 verify ÷ 2            ${rawBound.toFixed(0).padStart(8)} (${rawVerifies.toFixed(0)} verify/s)`);
console.log(`  HTTP ÷ in-process = ${httpRatio.toFixed(2)} (target >= 0.5); in-process ÷ raw bound = ${boundRatio.toFixed(2)} (target >= 0.5)\n`);
writeResult('verifier-direct-post', [
  { metric: `direct_post presentations verified/s over HTTP with PostgreSQL (${measured} sessions, ${connections} connections)`, value: http.perSecond.toFixed(0), baseline: `${inProcess.toFixed(0)} in-process verifyPresentation/s`, ratio: httpRatio, target: '>= 0.50', pass: allOk && httpRatio >= 0.5 },
  { metric: 'in-process verifyPresentation/s (SD-JWT VC + KB-JWT, x5c chain)', value: inProcess.toFixed(0), baseline: `${rawBound.toFixed(0)} (raw node:crypto ES256 verify/s ÷ 2)`, ratio: boundRatio, target: '>= 0.50', pass: boundRatio >= 0.5 },
]);
if (!allOk) {
  console.error(`not every answer was a stored 200 {}: ${http.ok} of ${http.sent} sent (${measured} expected); ${JSON.stringify(http.bad)}; stored ${JSON.stringify(stored)}`);
  process.exit(1);
}
