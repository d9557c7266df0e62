// Benchmark (issue 14): how soon a relying party learns that a wallet answered, pushed
// versus polled. Against the built verifier (a child process in production mode on
// PostgreSQL: bench/lib/verifier-setup.mjs), for BENCH_SESSIONS sessions one after another:
// the relying party follows each session three ways at once —
//   - server-sent events (GET …/verifier-presentation-events?id=), the first `state`
//     event with ResponseVerified;
//   - a signed webhook (presentation.verified) to a receiver on this host;
//   - polling GET …/verifier-presentation?id= every second (the baseline, measured in
//     the same run), started at a uniformly random phase relative to the answer;
// and an independent wallet (bench/lib/sd-jwt-issuer.mjs) answers via direct_post. Each
// latency is from the moment the wallet sends its answer to the moment the relying party
// holds the news. Medians and 95th percentiles; the ratios are polling ÷ push (how many
// times sooner the push arrives).
//
// Env: BENCH_SESSIONS (default 40), BENCH_POLL_MS (1000), BENCH_DATABASE_URL. The receiver is on
// this host over http, so the verifier runs with WEBHOOK_ALLOW_HTTP and WEBHOOK_DENY_PRIVATE_ADDRESSES=false.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { writeResult } from './lib/results.mjs';
import { createHolder, createIssuer, issuePid, PID_VCT, presentPid } from './lib/sd-jwt-issuer.mjs';
import { createSession, fetchRequestObject, pidQuery, startVerifierBench } from './lib/verifier-setup.mjs';

const sessions = Number(process.env.BENCH_SESSIONS ?? 40);
const pollMs = Number(process.env.BENCH_POLL_MS ?? 1000);
const VERIFIER_ID = 'desk';

const issuer = await createIssuer();
const receiver = await startWebhookReceiver();
const bench = await startVerifierBench({
  env: { WEBHOOK_DENY_PRIVATE_ADDRESSES: 'false', WEBHOOK_ALLOW_HTTP: 'true' },
});
const auth = { authorization: `Bearer ${bench.token}` };
const sse = [];
const webhook = [];
const polled = [];
let failure;
try {
  await expectStatus(bench.call('POST', '/verifier', { verifierId: VERIFIER_ID }), 201, 'verifier');
  await expectStatus(
    bench.call('POST', '/trust-anchors', { certificatePem: issuer.caPem, label: 'bench issuer' }),
    201,
    'trust anchor',
  );
  await expectStatus(
    bench.call('PUT', `/verifier/${VERIFIER_ID}/webhook`, { url: receiver.url, events: ['presentation.verified'] }),
    201,
    'webhook',
  );

  for (let index = 0; index < sessions; index++) {
    const holder = createHolder();
    const session = await createSession(bench, VERIFIER_ID, {
      dcql: pidQuery(PID_VCT),
      responseMode: 'direct_post',
      expiresInSeconds: 600,
    });
    const request = await fetchRequestObject(bench.url, session.authorizationRequestId);
    const vpToken = presentPid(issuePid(issuer, holder), holder, { nonce: request.nonce, aud: request.client_id });
    const stream = await followEvents(session.id);
    const poller = startPolling(session.id);
    // The answer lands at a uniformly random point of the polling period.
    await sleep(Math.random() * pollMs);
    const sentAt = performance.now();
    const answer = await fetch(request.response_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ vp_token: JSON.stringify({ pid: [vpToken] }), state: request.state }),
    });
    if (answer.status !== 200) throw new Error(`the wallet's answer: ${answer.status} ${await answer.text()}`);
    const [sseAt, webhookAt, polledAt] = await Promise.all([
      stream.verified,
      receiver.arrival(session.id),
      poller.verified,
    ]);
    stream.close();
    sse.push(sseAt - sentAt);
    webhook.push(webhookAt - sentAt);
    polled.push(polledAt - sentAt);
  }
} catch (error) {
  failure = error;
} finally {
  await bench.stop();
  await receiver.close();
}
if (failure) {
  console.error(failure);
  process.exit(1);
}

const describe = (values) =>
  `median ${percentile(values, 0.5).toFixed(0)} ms, p95 ${percentile(values, 0.95).toFixed(0)} ms`;
const poll = percentile(polled, 0.5);
console.log(`relying-party latency over ${sessions} sessions (wallet sends → relying party knows):`);
console.log(`  SSE      ${describe(sse)}`);
console.log(`  webhook  ${describe(webhook)}`);
console.log(`  polling  ${describe(polled)} (every ${pollMs} ms)`);
writeResult('relying-party-latency', [
  {
    metric: 'SSE event latency (median)',
    value: `${percentile(sse, 0.5).toFixed(0)} ms`,
    baseline: `polling every ${pollMs} ms: ${poll.toFixed(0)} ms`,
    ratio: poll / percentile(sse, 0.5),
    target: 'reported (polling ÷ SSE)',
    pass: true,
  },
  {
    metric: 'webhook delivery latency (median)',
    value: `${percentile(webhook, 0.5).toFixed(0)} ms`,
    baseline: `polling every ${pollMs} ms: ${poll.toFixed(0)} ms`,
    ratio: poll / percentile(webhook, 0.5),
    target: 'reported (polling ÷ webhook)',
    pass: true,
  },
]);

// ---- the three ways of learning the outcome ---------------------------------------------------
/** Opens the session's event stream; resolves once the initial state arrived. `verified`: when ResponseVerified arrived. */
async function followEvents(sessionId) {
  const controller = new AbortController();
  const response = await fetch(`${bench.url}${bench.managementPath}/verifier-presentation-events?id=${sessionId}`, {
    headers: { ...auth, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`event stream: ${response.status} ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let resolveFirst;
  const first = new Promise((resolve) => (resolveFirst = resolve));
  const verified = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream of ${sessionId} ended before ResponseVerified`);
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        resolveFirst();
        if (event.state === 'ResponseVerified') return performance.now();
        if (event.state === 'Error') throw new Error(`session ${sessionId} failed: ${data}`);
      }
    }
  })();
  verified.catch(() => {});
  await Promise.race([first, verified]);
  return { verified, close: () => controller.abort() };
}

/** Polls the session every `pollMs` from now; `verified`: when a poll first saw ResponseVerified. */
function startPolling(sessionId) {
  const verified = (async () => {
    for (;;) {
      const response = await fetch(`${bench.url}${bench.managementPath}/verifier-presentation?id=${sessionId}`, {
        headers: auth,
      });
      const state = (await response.json()).data?.state;
      if (state === 'ResponseVerified') return performance.now();
      if (state === 'Error') throw new Error(`session ${sessionId} failed`);
      await sleep(pollMs);
    }
  })();
  return { verified };
}

/** An HTTP receiver for the webhook: `arrival(sessionId)` resolves with when its event arrived. */
function startWebhookReceiver() {
  const arrivals = new Map();
  const waiting = new Map();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(204).end();
      const sessionId = JSON.parse(body).sessionId;
      arrivals.set(sessionId, at);
      waiting.get(sessionId)?.(at);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/webhook`,
        arrival: (sessionId) =>
          arrivals.has(sessionId)
            ? Promise.resolve(arrivals.get(sessionId))
            : new Promise((done) => waiting.set(sessionId, done)),
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

async function expectStatus(promise, status, what) {
  const response = await promise;
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
}

function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
