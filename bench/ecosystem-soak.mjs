// Soak: the ecosystem service for BENCH_SOAK_SECONDS (default 60) at 50 connections:
// authenticated reads (intents page, one intent, members, feature status) and intent
// creation, on PostgreSQL. Targets: zero 5xx, resident memory growth under 1.5x.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { createBenchOidc } from './lib/oidc.mjs';
import { writeResult } from './lib/results.mjs';
import { runSoak, soakRows } from './lib/soak.mjs';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-ecosystem-soak-'));

const pg = await startBenchPostgres();
const databaseUrl = await createBenchDatabase(pg.url, 'bench_ecosystem_soak');
const oidc = await createBenchOidc(dir);
const service = await startChildServer(join(here, 'servers/ecosystem-server.mjs'), {
  ...oidc.env,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'warn',
  DATA_DIR: dir,
});

const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
const ecosystemId = randomUUID();
await sql`insert into ecosystem.organisations (id, name, owner_user_id, owner_email) values ('bench-lead', 'Bench lead', 'bench-owner', 'owner@bench.example')`;
await sql`insert into ecosystem.ecosystems (id, name, description, created_by, last_changed_by, intent_count) values (${ecosystemId}, 'bench', 'bench', 'bench-owner', 'bench-owner', 100)`;
await sql`insert into ecosystem.memberships (id, ecosystem_id, org_id, role, status, user_id) values (${randomUUID()}, ${ecosystemId}, 'bench-lead', 'Ecosystem Lead', 'ACTIVE', 'bench-owner')`;
const intentIds = (
  await sql`
  insert into ecosystem.intents (id, ecosystem_id, name, description, created_by, last_changed_by)
  select gen_random_uuid(), ${ecosystemId}, 'seeded-' || g, 'seeded', 'bench-owner', 'bench-owner' from generate_series(1, 100) as g
  returning id`
).map((row) => row.id);
await sql.end();

const auth = {
  authorization: `Bearer ${await oidc.sign({ sub: 'bench-owner', email: 'owner@bench.example', orgRoles: { 'bench-lead': ['owner'] } })}`,
};
let created = 0;
const pick = () => {
  const roll = Math.random();
  if (roll < 0.05)
    return {
      method: 'POST',
      path: `/v1/intent/ecosystem/${ecosystemId}`,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `soak-${process.pid}-${created++}`, description: 'soak' }),
    };
  if (roll < 0.4)
    return { method: 'GET', path: `/v1/intent/ecosystem/${ecosystemId}?pageNumber=1&pageSize=10`, headers: auth };
  if (roll < 0.7)
    return {
      method: 'GET',
      path: `/v1/intent/${intentIds[Math.floor(Math.random() * intentIds.length)]}`,
      headers: auth,
    };
  if (roll < 0.85) return { method: 'GET', path: `/v1/ecosystem/members?ecosystemId=${ecosystemId}`, headers: auth };
  return { method: 'GET', path: '/v1/ecosystem/status', headers: auth };
};
const soak = await runSoak({ server: service, seconds, connections, pickRequest: pick });
await service.stop();
await pg.destroy();
rmSync(dir, { recursive: true, force: true });

console.log(
  `\necosystem-soak: ${seconds} s, ${connections} connections; statuses ${JSON.stringify(soak.statusCounts)}`,
);
writeResult('ecosystem-soak', soakRows('ecosystem', soak, seconds, connections));
