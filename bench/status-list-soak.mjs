// Soak: the status list service for BENCH_SOAK_SECONDS (default 60) at 50 connections,
// 90% reads of random lists (some revalidations) and 10% PATCHes with newer tokens,
// on PostgreSQL. Targets: zero 5xx, resident memory growth under 1.5x.
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { writeResult } from './lib/results.mjs';
import { runSoak, soakRows } from './lib/soak.mjs';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = fileURLToPath(new URL('.', import.meta.url));
const apiKey = randomBytes(24).toString('base64url');

const pg = await startBenchPostgres();
const service = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
  API_KEY: apiKey,
  DATABASE_URL: await createBenchDatabase(pg.url, 'bench_soak'),
  LOG_LEVEL: 'warn',
});
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
let iat = 1_700_000_000;
const token = (id) =>
  `${b64({ alg: 'ES256', typ: 'statuslist+jwt' })}.${b64({ sub: `${service.url}/status-lists/${id}`, iat: iat++, ttl: 300, status_list: { bits: 1, lst: deflateSync(randomBytes(256)).toString('base64url') } })}.${randomBytes(64).toString('base64url')}`;

const ids = [];
for (let i = 0; i < 500; i++) {
  const id = randomUUID();
  const response = await fetch(`${service.url}/status-lists`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ id, jwt: token(id) }),
  });
  if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
  ids.push(id);
}
const pick = () => {
  const id = ids[Math.floor(Math.random() * ids.length)];
  if (Math.random() < 0.1)
    return {
      method: 'PATCH',
      path: `/status-lists/${id}`,
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ jwt: token(id) }),
    };
  return {
    method: 'GET',
    path: `/status-lists/${id}`,
    headers: Math.random() < 0.2 ? { 'if-none-match': '"not-current"' } : {},
  };
};
const soak = await runSoak({ server: service, seconds, connections, pickRequest: pick });
await service.stop();
await pg.destroy();

console.log(
  `\nstatus-list-soak: ${seconds} s, ${connections} connections; statuses ${JSON.stringify(soak.statusCounts)}`,
);
writeResult('status-list-soak', soakRows('status list', soak, seconds, connections));
