// Benchmark: a list endpoint at 100,000 rows against 1,000 rows, same service, same
// run: GET /v1/intent/ecosystem/{id} (first page, 10 items) for an ecosystem with
// 1,000 intents and one with 100,000. Target: p97.5 latency ratio <= 1.5 (stricter
// than the p95 asked for; autocannon reports p97.5, not p95).
// Env: BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (default 50).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { runLoad } from './lib/load.mjs';
import { createBenchOidc } from './lib/oidc.mjs';
import { writeResult } from './lib/results.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-ecosystem-'));

const pg = await startBenchPostgres();
const databaseUrl = await createBenchDatabase(pg.url, 'bench_ecosystem');
const oidc = await createBenchOidc(dir);
const service = await startChildServer(join(here, 'servers/ecosystem-server.mjs'), {
  ...oidc.env,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'warn',
  DATA_DIR: dir,
});

const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
await sql`insert into ecosystem.organisations (id, name, owner_user_id, owner_email) values ('bench-lead', 'Bench lead', 'bench-owner', 'owner@bench.example')`;
/** An ecosystem led by `bench-lead` with `count` intents, seeded in bulk. */
async function seedEcosystem(count) {
  const id = randomUUID();
  await sql`insert into ecosystem.ecosystems (id, name, description, created_by, last_changed_by) values (${id}, ${`bench ${id}`}, 'bench', 'bench-owner', 'bench-owner')`;
  await sql`insert into ecosystem.memberships (id, ecosystem_id, org_id, role, status, user_id) values (${randomUUID()}, ${id}, 'bench-lead', 'Ecosystem Lead', 'ACTIVE', 'bench-owner')`;
  await sql`
    insert into ecosystem.intents (id, ecosystem_id, name, description, created_by, last_changed_by, created_at, last_changed_at)
    select gen_random_uuid(), ${id}, 'intent-' || g, 'seeded', 'bench-owner', 'bench-owner', now() - make_interval(secs => g), now()
    from generate_series(1, ${count}::int) as g`;
  await sql`update ecosystem.ecosystems set intent_count = ${count} where id = ${id}`;
  return id;
}
const small = await seedEcosystem(1000);
const large = await seedEcosystem(100_000);
await sql`vacuum analyze ecosystem.intents`;
await sql.end();

const token = await oidc.sign({
  sub: 'bench-owner',
  email: 'owner@bench.example',
  orgRoles: { 'bench-lead': ['owner'] },
});
const pageOf = (ecosystemId) => () => ({
  path: `/v1/intent/ecosystem/${ecosystemId}?pageNumber=1&pageSize=10`,
  headers: { authorization: `Bearer ${token}` },
});
const measure = async (ecosystemId) => {
  await runLoad({
    url: service.url,
    connections,
    durationSeconds: Math.min(3, duration),
    pickRequest: pageOf(ecosystemId),
    expectStatus: 200,
  });
  return runLoad({
    url: service.url,
    connections,
    durationSeconds: duration,
    pickRequest: pageOf(ecosystemId),
    expectStatus: 200,
  });
};
const withSmall = await measure(small);
const withLarge = await measure(large);
await service.stop();
await pg.destroy();
rmSync(dir, { recursive: true, force: true });

const ratio = withLarge.p97_5Ms / withSmall.p97_5Ms;
console.log(`\necosystem-lists: ${connections} connections, ${duration} s per run`);
writeResult('ecosystem-lists', [
  {
    metric: 'GET /v1/intent/ecosystem/{id} first page, p97.5 latency with 100,000 intents',
    value: `${withLarge.p97_5Ms} ms (${withLarge.requestsPerSecond.toFixed(0)} req/s)`,
    baseline: `${withSmall.p97_5Ms} ms with 1,000 intents (${withSmall.requestsPerSecond.toFixed(0)} req/s)`,
    ratio,
    target: '<= 1.5',
    pass: ratio <= 1.5,
  },
]);
if (withSmall.errors + withLarge.errors > 0) {
  console.error('the service answered errors during the run');
  process.exit(1);
}
