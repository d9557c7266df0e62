// Benchmark: GET /status-lists/:id on the real service (1,000 stored lists, random
// ids) against a bare Fastify route answering a string of the same size, measured in
// the same run with the same load generator. Prints requests/s, p99 and the ratio,
// for 200 responses and for If-None-Match revalidations (304).
//
// Env: BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (default 50),
// BENCH_LISTS (default 1000), BENCH_DATABASE_URL (PostgreSQL; PGlite in a temp dir otherwise).
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { startChildServer } from './lib/child-server.mjs';
import { runLoad } from './lib/load.mjs';
import { writeResult } from './lib/results.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const listCount = Number(process.env.BENCH_LISTS ?? 1000);
const here = fileURLToPath(new URL('.', import.meta.url));
const apiKey = randomBytes(24).toString('base64url');

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A real ES256-signed status list token of 8,192 one-bit entries. */
function signToken(sub) {
  const lst = deflateSync(randomBytes(1024), { level: 9 }).toString('base64url');
  const input = `${b64({ alg: 'ES256', typ: 'statuslist+jwt' })}.${b64({ sub, iat: Math.floor(Date.now() / 1000), ttl: 300, status_list: { bits: 1, lst } })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-status-list-'));
const service = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
  API_KEY: apiKey,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});

const lists = [];
for (let i = 0; i < listCount; i++) {
  const id = randomUUID();
  const jwt = signToken(`${service.url}/status-lists/${id}`);
  const response = await fetch(`${service.url}/status-lists`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify({ id, jwt }) });
  if (response.status !== 201) throw new Error(`seeding failed: ${response.status} ${await response.text()}`);
  lists.push({ id, etag: `"${createHash('sha256').update(jwt).digest('base64url')}"` });
}
const bodyBytes = Math.round(lists.length ? (await (await fetch(`${service.url}/status-lists/${lists[0].id}`)).text()).length : 1024);
const baseline = await startChildServer(join(here, 'servers/bare-server.mjs'), { BODY_BYTES: String(bodyBytes) });

const pick = () => lists[Math.floor(Math.random() * lists.length)];
const warm = (url, pickRequest, expectStatus) => runLoad({ url, connections, durationSeconds: 2, pickRequest, expectStatus });
const measure = (url, pickRequest, expectStatus) => runLoad({ url, connections, durationSeconds: duration, pickRequest, expectStatus });

const getService = () => ({ path: `/status-lists/${pick().id}` });
const getBaseline = () => ({ path: `/status-lists/${pick().id}` });
const revalidateService = () => {
  const list = pick();
  return { path: `/status-lists/${list.id}`, headers: { 'if-none-match': list.etag } };
};
const revalidateBaseline = () => ({ path: `/status-lists/${pick().id}`, headers: { 'if-none-match': '"baseline"' } });

await warm(service.url, getService, 200);
await warm(baseline.url, getBaseline, 200);
const results = {
  get: { service: await measure(service.url, getService, 200), baseline: await measure(baseline.url, getBaseline, 200) },
  revalidate: { service: await measure(service.url, revalidateService, 304), baseline: await measure(baseline.url, revalidateBaseline, 304) },
};
await service.stop();
await baseline.stop();
rmSync(dataDir, { recursive: true, force: true });

const ratio = (r) => r.service.requestsPerSecond / r.baseline.requestsPerSecond;
const fmt = (n) => n.toFixed(0).padStart(8);
console.log(`\nstatus-list-read: ${listCount} lists, ${bodyBytes}-byte tokens, ${connections} connections, ${duration} s per run`);
console.log('                      service req/s   baseline req/s   ratio   service p99   baseline p99   errors');
for (const [name, r] of Object.entries(results)) {
  console.log(`  ${name.padEnd(18)} ${fmt(r.service.requestsPerSecond)}        ${fmt(r.baseline.requestsPerSecond)}        ${ratio(r).toFixed(2)}   ${String(r.service.p99Ms).padStart(6)} ms    ${String(r.baseline.p99Ms).padStart(6)} ms    ${r.service.errors + r.baseline.errors}`);
}
console.log(`\nratio (GET 200) = ${ratio(results.get).toFixed(2)} (target >= 0.70); ratio (304) = ${ratio(results.revalidate).toFixed(2)}`);

writeResult('status-list-read', [
  { metric: `GET 200 req/s, ${listCount} lists (p99 ${results.get.service.p99Ms} ms)`, value: fmt(results.get.service.requestsPerSecond).trim(), baseline: `${fmt(results.get.baseline.requestsPerSecond).trim()} (bare Fastify)`, ratio: ratio(results.get), target: '>= 0.70', pass: ratio(results.get) >= 0.7 },
  { metric: `If-None-Match 304 req/s (p99 ${results.revalidate.service.p99Ms} ms)`, value: fmt(results.revalidate.service.requestsPerSecond).trim(), baseline: `${fmt(results.revalidate.baseline.requestsPerSecond).trim()} (bare Fastify)`, ratio: ratio(results.revalidate), target: 'reported', pass: true },
]);
if (results.get.service.errors > 0 || results.revalidate.service.errors > 0) {
  console.error('the service answered errors during the run');
  process.exit(1);
}
