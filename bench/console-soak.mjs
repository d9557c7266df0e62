// Soak: the console for BENCH_SOAK_SECONDS (default 60) at 50 connections, holding
// BENCH_CONSOLE_SESSIONS (default 1000) signed-in sessions: each request is one of them
// loading a page — a status list decoded into its searchable view (the status list
// service behind it, on PostgreSQL), its directory page (no service call), or the start
// page of a person without ecosystems. Targets: zero 5xx, resident memory growth under
// 1.5x. The resident memory is also what the console's Kubernetes requests are sized from.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { writeResult } from './lib/results.mjs';
import { runSoak, soakRows } from './lib/soak.mjs';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const sessionCount = Number(process.env.BENCH_CONSOLE_SESSIONS ?? 1000);
const here = fileURLToPath(new URL('.', import.meta.url));
const apiKey = randomBytes(24).toString('base64url');
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-console-'));

const pg = await startBenchPostgres();
const statusList = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
  API_KEY: apiKey,
  DATABASE_URL: await createBenchDatabase(pg.url, 'bench_console'),
  LOG_LEVEL: 'warn',
});
const service = await startChildServer(join(here, 'servers/console-server.mjs'), {
  DATA_DIR: dataDir,
  STATUS_LIST_URL: statusList.url,
  // No verifier or ecosystem behind it: the pages the soak loads do not call them.
  VERIFIER_URL: 'http://127.0.0.1:9',
  ECOSYSTEM_URL: 'http://127.0.0.1:9',
});

// A 1-bit list of 80,000 entries (10,000 bytes), as an issuer would publish it.
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const listIds = [];
for (let i = 0; i < 20; i++) {
  const id = randomUUID();
  const jwt = `${b64({ alg: 'ES256', typ: 'statuslist+jwt' })}.${b64({ sub: `${statusList.url}/status-lists/${id}`, iat: 1_700_000_000, ttl: 300, status_list: { bits: 1, lst: deflateSync(randomBytes(10_000)).toString('base64url') } })}.${randomBytes(64).toString('base64url')}`;
  const response = await fetch(`${statusList.url}/status-lists`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ id, jwt }),
  });
  if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
  listIds.push(id);
}

/** Signs one person in as a browser does: the sign-in page's form token, then the form. */
async function signIn(index) {
  const page = await fetch(`${service.url}/sign-in`);
  const csrfCookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const token = /name="csrf-token" content="([^"]+)"/.exec(await page.text())[1];
  const response = await fetch(`${service.url}/sign-in/development`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({
      _csrf: token,
      sub: `person-${index}`,
      email: `person-${index}@bench.example`,
      organisations: 'org-bench: member',
    }).toString(),
  });
  const session = response.headers.getSetCookie().find((line) => line.startsWith('__Host-tessera-session='));
  if (response.status !== 303 || !session) throw new Error(`sign-in answered ${response.status}`);
  return session.split(';')[0];
}
const cookies = [];
for (let i = 0; i < sessionCount; i += 50)
  cookies.push(...(await Promise.all(Array.from({ length: Math.min(50, sessionCount - i) }, (_, k) => signIn(i + k)))));

const pick = () => {
  const cookie = cookies[Math.floor(Math.random() * cookies.length)];
  const roll = Math.random();
  const path =
    roll < 0.5
      ? `/status-lists?list=${listIds[Math.floor(Math.random() * listIds.length)]}&page=${1 + Math.floor(Math.random() * 800)}`
      : roll < 0.8
        ? '/orgs/org-bench/directory'
        : '/';
  return { method: 'GET', path, headers: { cookie } };
};
const soak = await runSoak({ server: service, seconds, connections, pickRequest: pick });
await service.stop();
await statusList.stop();
await pg.destroy();
rmSync(dataDir, { recursive: true, force: true });

console.log(
  `\nconsole-soak: ${seconds} s, ${connections} connections, ${sessionCount} sessions; statuses ${JSON.stringify(soak.statusCounts)}`,
);
writeResult('console-soak', soakRows('console', soak, seconds, connections));
