// Benchmark: intent resolution over NATS (`ecosystem.v1.intent.resolve`, answered by
// the real ecosystem service from PostgreSQL) against a bare NATS request/reply echo
// answered by another process, same server, same client, same concurrency.
// Target: ratio >= 0.5. Env: BENCH_DURATION (seconds per run, default 10), BENCH_CONCURRENCY (50).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { createLogger, NatsBus } from '@tessera/service-kit';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchNats, startBenchPostgres } from './lib/infra.mjs';
import { createBenchOidc } from './lib/oidc.mjs';
import { writeResult } from './lib/results.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-intents-'));

const [pg, nats] = await Promise.all([startBenchPostgres(), startBenchNats()]);
const databaseUrl = await createBenchDatabase(pg.url, 'bench_intents');
const oidc = await createBenchOidc(dir);
// NATS_ALLOW_INSECURE: the benchmark's own loopback NATS is plain and anonymous (local only).
const ecosystem = await startChildServer(join(here, 'servers/ecosystem-server.mjs'), {
  ...oidc.env,
  DATABASE_URL: databaseUrl,
  NATS_URL: nats.url,
  NATS_ALLOW_INSECURE: 'true',
  LOG_LEVEL: 'warn',
  DATA_DIR: dir,
});
const echo = await startChildServer(join(here, 'servers/nats-echo.mjs'), { NATS_URL: nats.url });

// One ecosystem with a lead, an intent and its ecosystem-wide verifier template.
const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
const ecosystemId = randomUUID();
const intentId = randomUUID();
await sql`insert into ecosystem.organisations (id, name, owner_user_id, owner_email) values ('bench-lead', 'Bench lead', 'bench-owner', 'owner@bench.example')`;
await sql`insert into ecosystem.ecosystems (id, name, description, created_by, last_changed_by, intent_count) values (${ecosystemId}, 'bench', 'bench', 'bench-owner', 'bench-owner', 1)`;
await sql`insert into ecosystem.memberships (id, ecosystem_id, org_id, role, status, user_id) values (${randomUUID()}, ${ecosystemId}, 'bench-lead', 'Ecosystem Lead', 'ACTIVE', 'bench-owner')`;
await sql`insert into ecosystem.intents (id, ecosystem_id, name, description, created_by, last_changed_by) values (${intentId}, ${ecosystemId}, 'age-check', 'bench', 'bench-owner', 'bench-owner')`;
await sql`insert into ecosystem.intent_templates (id, intent_id, template_id, role, created_by, last_changed_by) values (${randomUUID()}, ${intentId}, 'template-1', 'verifier', 'bench-owner', 'bench-owner')`;
await sql.end();

const client = await NatsBus.connect({
  url: nats.url,
  name: 'bench-client',
  logger: createLogger({ name: 'bench', level: 'warn' }),
});
const resolveRequest = { ecosystemId, intent: 'Age-Check', orgId: 'bench-lead', role: 'verifier' };

/** Requests/s with `concurrency` requests in flight for `seconds`; every reply must be ok. */
async function measure(subject, payload, seconds) {
  let done = 0;
  let failed = 0;
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const reply = await client.request(subject, payload, { timeoutMs: 5000 }).catch(() => undefined);
      if (reply?.ok === true) done += 1;
      else failed += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: done / ((Date.now() - started) / 1000), failed };
}

const check = await client.request('ecosystem.v1.intent.resolve', resolveRequest);
if (check?.ok !== true) throw new Error(`intent resolution failed: ${JSON.stringify(check)}`);
await measure('bench.v1.echo', { ping: 1 }, 2);
const baseline = await measure('bench.v1.echo', resolveRequest, duration);
await measure('ecosystem.v1.intent.resolve', resolveRequest, 2);
const resolved = await measure('ecosystem.v1.intent.resolve', resolveRequest, duration);

await client.close();
await Promise.all([ecosystem.stop(), echo.stop()]);
await Promise.all([pg.destroy(), nats.destroy()]);
rmSync(dir, { recursive: true, force: true });

const ratio = resolved.perSecond / baseline.perSecond;
console.log(`\nintent-resolve-nats: ${concurrency} requests in flight, ${duration} s per run`);
writeResult('intent-resolve-nats', [
  {
    metric: 'ecosystem.v1.intent.resolve replies/s (ecosystem service, PostgreSQL)',
    value: resolved.perSecond.toFixed(0),
    baseline: `${baseline.perSecond.toFixed(0)} (bare NATS echo)`,
    ratio,
    target: '>= 0.5',
    pass: ratio >= 0.5,
  },
]);
if (resolved.failed + baseline.failed > 0) {
  console.error(`${resolved.failed + baseline.failed} requests failed`);
  process.exit(1);
}
