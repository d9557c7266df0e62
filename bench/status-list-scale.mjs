// Benchmark: status list reads with 100,000 stored lists against 1,000, same service,
// same run, on PostgreSQL. Reads pick random ids over all stored lists, so the
// in-memory cache and the database index both see the full set.
// Env: BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (50),
// BENCH_SCALE_LISTS (100000).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import postgres from 'postgres';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { runLoad } from './lib/load.mjs';
import { writeResult } from './lib/results.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const large = Number(process.env.BENCH_SCALE_LISTS ?? 100_000);
const small = 1000;
const here = fileURLToPath(new URL('.', import.meta.url));
const apiKey = randomBytes(24).toString('base64url');

const pg = await startBenchPostgres();
const databaseUrl = await createBenchDatabase(pg.url, 'bench_status_list');
const service = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
  API_KEY: apiKey,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'warn',
});

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Rows as the service stores them (structure only matters here: the service does not verify signatures). */
function rowsFor(count) {
  return Array.from({ length: count }, () => {
    const id = randomUUID();
    const lst = deflateSync(randomBytes(128), { level: 9 }).toString('base64url');
    const jwt = `${b64({ alg: 'ES256', typ: 'statuslist+jwt' })}.${b64({ sub: `${service.url}/status-lists/${id}`, iat: 1_700_000_000, ttl: 300, status_list: { bits: 1, lst } })}.${randomBytes(64).toString('base64url')}`;
    return {
      id,
      jwt,
      bits: 1,
      sub: `${service.url}/status-lists/${id}`,
      iat: 1_700_000_000,
      ttl: 300,
      etag: `"${createHash('sha256').update(jwt).digest('base64url')}"`,
    };
  });
}

const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
async function seed(rows) {
  for (let i = 0; i < rows.length; i += 2000)
    await sql`insert into status_list.status_lists ${sql(rows.slice(i, i + 2000))}`;
}

const ids = [];
const random = () => ({ path: `/status-lists/${ids[Math.floor(Math.random() * ids.length)]}` });
/** Requests every stored list once, so the replica's cache holds them all (steady state). */
async function warmAll() {
  let next = 0;
  const total = ids.length;
  await runLoad({
    url: service.url,
    connections,
    amount: total,
    pickRequest: () => ({ path: `/status-lists/${ids[next++ % total]}` }),
    expectStatus: 200,
  });
}
async function grow(count) {
  const rows = rowsFor(count - ids.length);
  await seed(rows);
  ids.push(...rows.map((row) => row.id));
}

await grow(small);
await warmAll();
const withSmall = await runLoad({
  url: service.url,
  connections,
  durationSeconds: duration,
  pickRequest: random,
  expectStatus: 200,
});
await grow(large);
// Cold: most reads miss the cache and go to the database.
const cold = await runLoad({
  url: service.url,
  connections,
  durationSeconds: duration,
  pickRequest: random,
  expectStatus: 200,
});
await warmAll();
const withLarge = await runLoad({
  url: service.url,
  connections,
  durationSeconds: duration,
  pickRequest: random,
  expectStatus: 200,
});
await sql.end();
await service.stop();
await pg.destroy();

const ratio = withLarge.requestsPerSecond / withSmall.requestsPerSecond;
const coldRatio = cold.requestsPerSecond / withSmall.requestsPerSecond;
console.log(`\nstatus-list-scale: ${connections} connections, ${duration} s per run`);
writeResult('status-list-scale', [
  {
    metric: `GET req/s with ${large} lists, cache warm (p99 ${withLarge.p99Ms} ms)`,
    value: withLarge.requestsPerSecond.toFixed(0),
    baseline: `${withSmall.requestsPerSecond.toFixed(0)} with ${small} lists (p99 ${withSmall.p99Ms} ms)`,
    ratio,
    target: '>= 0.80',
    pass: ratio >= 0.8,
  },
  {
    metric: `GET req/s with ${large} lists, cache cold: reads go to PostgreSQL (p99 ${cold.p99Ms} ms)`,
    value: cold.requestsPerSecond.toFixed(0),
    baseline: `${withSmall.requestsPerSecond.toFixed(0)} with ${small} lists, warm`,
    ratio: coldRatio,
    target: 'reported',
    pass: true,
  },
]);
if (withSmall.errors + withLarge.errors + cold.errors > 0) {
  console.error('the service answered errors during the run');
  process.exit(1);
}
