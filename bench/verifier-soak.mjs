// Soak: a mixed load on the verifier for BENCH_SOAK_SECONDS (default 60) at 50
// connections — each connection repeats: create a direct_post session through the
// management API (bearer token), fetch its request object as a wallet would, read the
// session back. Targets: zero 5xx, and the child's resident memory at the end under
// 1.5× what it was after a 10 s warm-up.
//
// Env: BENCH_SOAK_SECONDS (60), BENCH_SOAK_CONNECTIONS (50), BENCH_SOAK_WARMUP_SECONDS (10),
// BENCH_DATABASE_URL, BENCH_NATS_URL.
import { residentBytes } from './lib/infra.mjs';
import { runTimedLoad } from './lib/load-latency.mjs';
import { writeResult } from './lib/results.mjs';
import { pidQuery, startVerifierBench } from './lib/verifier-setup.mjs';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const connections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 50);
const warmupSeconds = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? 10);

const bench = await startVerifierBench();
let run;
let rssStart;
let rssEnd;
const samples = [];
try {
  if ((await bench.call('POST', '/verifier', { verifierId: 'desk' })).status !== 201)
    throw new Error('verifier not created');
  const auth = { authorization: `Bearer ${bench.token}` };
  const createBody = JSON.stringify({
    dcql: pidQuery('https://example.eu/pid'),
    responseMode: 'direct_post',
    expiresInSeconds: 600,
  });
  const requests = [
    {
      method: 'POST',
      path: `${bench.managementPath}/presentation?verifierId=desk`,
      headers: { ...auth, 'content-type': 'application/json' },
      body: createBody,
      onResponse: (status, body, context) => {
        context.session = status === 201 ? JSON.parse(body).data : undefined;
      },
    },
    {
      setupRequest: (request, context) => ({
        ...request,
        method: 'GET',
        path: `/oid4vp/authorization-requests/${context.session?.authorizationRequestId ?? 'none'}`,
      }),
    },
    {
      setupRequest: (request, context) => ({
        ...request,
        method: 'GET',
        path: `${bench.managementPath}/verifier-presentation?id=${context.session?.id ?? 'none'}`,
        headers: auth,
      }),
    },
  ];
  const sampler = setInterval(() => {
    residentBytes(bench.child.pid).then(
      (bytes) => samples.push(bytes),
      () => {},
    );
  }, 1000);
  setTimeout(() => {
    residentBytes(bench.child.pid).then((bytes) => (rssStart = bytes));
  }, warmupSeconds * 1000).unref();
  // Measured from the end of the warm-up (runTimedLoad counts answers only after it).
  run = await runTimedLoad({
    url: bench.url,
    connections,
    durationSeconds: seconds - warmupSeconds,
    warmupSeconds,
    requests,
    expectStatus: 200,
  });
  clearInterval(sampler);
  rssEnd = await residentBytes(bench.child.pid);
} finally {
  await bench.stop();
}

// Created sessions answer 201, the others 200: every 2xx is a success.
const ok = Object.entries(run.byStatus)
  .filter(([code]) => Number(code) >= 200 && Number(code) < 300)
  .reduce((sum, [, n]) => sum + n, 0);
const other = Object.entries(run.byStatus)
  .filter(([code]) => Number(code) < 200 || Number(code) >= 300)
  .reduce((sum, [, n]) => sum + n, 0);
const rssRatio = rssEnd / rssStart;
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;
console.log(
  `\nverifier-soak: ${seconds} s (${warmupSeconds} s warm-up) at ${connections} connections; create session → fetch request object → read session`,
);
console.log(
  `  answers after warm-up: ${JSON.stringify(run.byStatus)} (${(ok / (seconds - warmupSeconds)).toFixed(0)} req/s), 5xx ${run.serverErrors}, socket errors/timeouts ${run.socketErrors}`,
);
console.log(
  `  resident memory: ${mb(rssStart)} after warm-up, ${mb(rssEnd)} at the end (peak ${mb(Math.max(...samples))})`,
);
writeResult('verifier-soak', [
  {
    metric: `5xx answers in a ${seconds} s mixed soak at ${connections} connections (${ok} 2xx, ${other} others)`,
    value: String(run.serverErrors),
    baseline: '0 allowed',
    ratio: run.serverErrors,
    target: '= 0',
    pass: run.serverErrors === 0 && run.socketErrors === 0,
  },
  {
    metric: `child resident memory at the end (peak ${mb(Math.max(...samples))})`,
    value: mb(rssEnd),
    baseline: `${mb(rssStart)} after ${warmupSeconds} s warm-up`,
    ratio: rssRatio,
    target: '< 1.50',
    pass: rssRatio < 1.5,
  },
]);
if (run.serverErrors > 0 || other > 0 || run.socketErrors > 0) {
  console.error(`unexpected answers during the soak: ${JSON.stringify(run.byStatus)}`);
  process.exit(1);
}
