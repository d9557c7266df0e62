// Benchmark: GET /status-lists/:id on the real service (its production entry point,
// built, NODE_ENV=production, 1,000 stored lists of each form, random ids) against a
// bare Fastify route answering each id with the very bytes and type the service answers it
// with (servers/bare-server.mjs says why the same bytes matter), measured in the same
// run with the same load generator, on PostgreSQL and on the embedded PGlite. Prints
// requests/s, p99 and their ratio for 200 responses and for If-None-Match
// revalidations (304), for JWT lists and for CWT lists (issue 26: CWT GETs hold the
// ratio JWT GETs hold; issue 27: each at least 0.75), the server CPU time per request of
// each side (Linux), which the load generator sharing the cores disturbs less than
// requests/s, and the load generator's own CPU per request (this process).
//
// The two servers are measured in alternating slices (service, baseline, baseline,
// service, ...), so a burst of other work on the machine falls on both sides alike;
// each ratio is the service's requests over the baseline's in the same slices.
//
// Metrics (issue 16 item 5): the same service with METRICS_ENABLED=false runs beside it
// on the same database, and GET 200 is measured on both in alternating slices while
// /metrics of the metrics-on side is scraped every second (Prometheus scrapes every
// 15-30 s); the ratio is metrics-on over metrics-off (target >= 0.95: at most 5 % overhead).
//
// Env: BENCH_DURATION (seconds per side per measurement, default 10), BENCH_SLICE
// (seconds per slice, default 2), BENCH_CONNECTIONS (default 50), BENCH_LISTS (lists
// of each form, default 1000), BENCH_STORES (`postgres,pglite`, the default, or one of them),
// BENCH_DATABASE_URL (a PostgreSQL server; one is started from the local binaries
// otherwise), BENCH_PROFILE_DIR (CPU profiles of both servers: read them with
// `node lib/profile-summary.mjs --from <s>`, the offset printed for each store).
// BENCH_COMPARE_TREE=<another checkout of this repository, installed and built>: on PostgreSQL,
// that tree's service also runs on the same database, and GET 200 and 304 are measured on this
// build and on it in alternating slices: requests/s and server CPU per request of both, to
// measure a change in one run (issue 27).
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { Encoder, Tag } from 'cbor-x';
import postgres from 'postgres';
import { startChildServer } from './lib/child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './lib/infra.mjs';
import { runLoad } from './lib/load.mjs';
import { cpuMicros } from './lib/process-cpu.mjs';
import { writeResult } from './lib/results.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const sliceSeconds = Math.min(duration, Number(process.env.BENCH_SLICE ?? 2));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const listCount = Number(process.env.BENCH_LISTS ?? 1000);
const stores = (process.env.BENCH_STORES ?? 'postgres,pglite').split(',').map((store) => store.trim());
const here = fileURLToPath(new URL('.', import.meta.url));
const compareTree = process.env.BENCH_COMPARE_TREE;
const apiKey = randomBytes(24).toString('base64url');
/** Issue 27: a GET, JWT or CWT, 200 or 304, at least 0.75 of bare Fastify's answering the same bytes. */
const TARGET = 0.75;
/**
 * A CWT GET against a JWT GET on one service costs what it costs bare Fastify answering the
 * same bytes, within the noise of a shared machine. Compared by the server's CPU per request
 * (JWT's ÷ CWT's), not by requests/s: autocannon decodes each body as text, far dearer for a
 * CWT's binary bytes than for a JWT's ASCII, so on a 2-core machine the CWT side runs at a
 * lower rate, and any server's CPU per request rises at a lower rate (fewer requests per
 * wake-up of its event loop: measured, bare Fastify's rises as much as the service's).
 * Hence the service's JWT ÷ CWT CPU ratio over bare Fastify's, each measured in
 * alternating slices of CWT and JWT GETs.
 */
const CWT_OVER_JWT_TARGET = 0.9;
/** JWT GET CPU per request over CWT GET CPU per request, on one server. */
const cpuRatio = (cwtOverJwt) => cwtOverJwt.baseline.cpuMicrosPerRequest / cwtOverJwt.service.cpuMicrosPerRequest;
/** The service's JWT ÷ CWT CPU ratio over bare Fastify's. */
const cwtCostRatio = (cwtOverJwt) => cpuRatio(cwtOverJwt) / cpuRatio(cwtOverJwt.bare);
/** Metrics on over metrics off: at most 5 % fewer requests. */
const METRICS_TARGET = 0.95;

/** A port nothing listens on now, for the metrics-on side's METRICS_PORT. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Scrapes `url` every second until stopped, as Prometheus would (more often); fails the run on a bad scrape. */
function startScraping(url) {
  let scrapes = 0;
  let failure;
  const timer = setInterval(() => {
    fetch(url).then(
      async (response) => {
        if (response.status !== 200 || !(await response.text()).includes('tessera_status_list_reads_total'))
          failure ??= new Error(`scrape answered ${response.status}`);
        scrapes++;
      },
      (error) => (failure ??= error),
    );
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      if (failure) throw failure;
      return scrapes;
    },
  };
}

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A real ES256-signed status list token of 8,192 one-bit entries. */
function signToken(sub) {
  const lst = deflateSync(randomBytes(1024), { level: 9 }).toString('base64url');
  const input = `${b64({ alg: 'ES256', typ: 'statuslist+jwt' })}.${b64({ sub, iat: Math.floor(Date.now() / 1000), ttl: 300, status_list: { bits: 1, lst } })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** CBOR as an issuer writes it: maps with integer labels, untagged byte strings. */
const cbor = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false, variableMapSize: true });
/**
 * A real ES256-signed status list token in CWT form (a tagged COSE_Sign1) of 8,192
 * one-bit entries, as a write sends it: base64url of its bytes.
 */
function signCwt(sub) {
  const lst = deflateSync(randomBytes(1024), { level: 9 });
  const protectedHeader = cbor.encode(
    new Map([
      [1, -7],
      [16, 'application/statuslist+cwt'],
    ]),
  );
  const claims = new Map([
    [2, sub],
    [6, Math.floor(Date.now() / 1000)],
    [65534, 300],
    [
      65533,
      new Map([
        ['bits', 1],
        ['lst', lst],
      ]),
    ],
  ]);
  const payload = cbor.encode(claims);
  const toBeSigned = cbor.encode(['Signature1', protectedHeader, Buffer.alloc(0), payload]);
  const signature = sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return cbor.encode(new Tag([protectedHeader, new Map(), payload, signature], 18)).toString('base64url');
}

/** Measures one side for one slice: requests, p99 and the server's CPU time. */
async function measureSlice(server, pickRequest, expectStatus) {
  const cpuBefore = cpuMicros(server.child.pid);
  const loadBefore = process.cpuUsage();
  const result = await runLoad({
    url: server.url,
    connections,
    durationSeconds: sliceSeconds,
    pickRequest,
    expectStatus,
  });
  const cpuAfter = cpuMicros(server.child.pid);
  const load = process.cpuUsage(loadBefore);
  return {
    ...result,
    cpuMicros: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    loadCpuMicros: load.user + load.system,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
};

/** Both sides in alternating slices (S B B S S B ...), `duration` seconds each. */
async function compare(service, baseline, pickService, pickBaseline, expectStatus) {
  const sides = { service: [], baseline: [] };
  const slices = Math.max(1, Math.round(duration / sliceSeconds));
  for (let i = 0; i < slices; i++) {
    const order = i % 2 === 0 ? ['service', 'baseline'] : ['baseline', 'service'];
    for (const side of order) {
      sides[side].push(
        side === 'service'
          ? await measureSlice(service, pickService, expectStatus)
          : await measureSlice(baseline, pickBaseline, expectStatus),
      );
    }
  }
  const summarize = (runs) => {
    const total = runs.reduce((sum, run) => sum + run.total, 0);
    const cpu = runs.every((run) => run.cpuMicros !== undefined)
      ? runs.reduce((sum, run) => sum + run.cpuMicros, 0)
      : undefined;
    return {
      requestsPerSecond: total / (runs.length * sliceSeconds),
      p99Ms: median(runs.map((run) => run.p99Ms)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      cpuMicrosPerRequest: cpu === undefined || total === 0 ? undefined : cpu / total,
      loadCpuMicrosPerRequest: total === 0 ? undefined : runs.reduce((sum, run) => sum + run.loadCpuMicros, 0) / total,
    };
  };
  const service_ = summarize(sides.service);
  const baseline_ = summarize(sides.baseline);
  return { service: service_, baseline: baseline_, ratio: service_.requestsPerSecond / baseline_.requestsPerSecond };
}

/**
 * This build's service against BENCH_COMPARE_TREE's on the same database (the lists seeded
 * through this one), for each [name, pickRequest, status] in alternating slices.
 */
async function compareWithTree(service, serviceEnv, kinds) {
  const other = await startChildServer(join(compareTree, 'bench/servers/status-list-server.mjs'), serviceEnv);
  try {
    const results = [];
    for (const [kind, pickRequest, status] of kinds) {
      // The other build has not served these lists yet: its cache warms as this one's did.
      await runLoad({ url: other.url, connections, durationSeconds: 2, pickRequest, expectStatus: status });
      results.push({ kind, ...(await compare(service, other, pickRequest, pickRequest, status)) });
    }
    return results;
  } finally {
    await other.stop();
  }
}

/** Seeds a service on `store`, measures it against the baseline, stops both. */
async function benchStore(store) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-status-list-'));
  let pg;
  let databaseUrl;
  if (store === 'postgres') {
    pg = await startBenchPostgres();
    databaseUrl = await createBenchDatabase(pg.url, 'bench_status_list_read');
  } else if (store !== 'pglite') {
    throw new Error(`BENCH_STORES: unknown store ${store} (postgres or pglite)`);
  }
  const startedAt = Date.now();
  const metricsPort = await freePort();
  const serviceEnv = {
    NODE_ENV: 'production',
    API_KEY: apiKey,
    DATA_DIR: dataDir,
    // Production logging on a hot read path: warn and above, no per-request access lines.
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const service = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
    ...serviceEnv,
    METRICS_ENABLED: 'true',
    METRICS_PORT: String(metricsPort),
  });
  try {
    /** `listCount` lists of one form through the API, with the ETag each is served under. */
    const seed = async (form) => {
      const lists = [];
      for (let i = 0; i < listCount; i++) {
        const id = randomUUID();
        const sub = `${service.url}/status-lists/${id}`;
        const token = form === 'jwt' ? signToken(sub) : signCwt(sub);
        const response = await fetch(`${service.url}/status-lists`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify({ id, [form]: token }),
        });
        if (response.status !== 201) throw new Error(`seeding failed: ${response.status} ${await response.text()}`);
        const served = form === 'jwt' ? Buffer.from(token) : Buffer.from(token, 'base64url');
        lists.push({ id, etag: `"${createHash('sha256').update(served).digest('base64url')}"` });
      }
      return lists;
    };
    const lists = await seed('jwt');
    const cwtLists = await seed('cwt');
    const bytesOf = async (id) => Buffer.from(await (await fetch(`${service.url}/status-lists/${id}`)).arrayBuffer());
    /**
     * Each list's bytes as the service answers them, for a baseline that answers every id with
     * the same bytes (see servers/bare-server.mjs: one repeated body is cheaper for autocannon).
     */
    const writeBodies = async (form, seeded) => {
      const bodies = {};
      for (const list of seeded) bodies[list.id] = (await bytesOf(list.id)).toString('base64');
      const file = join(dataDir, `${form}-bodies.json`);
      writeFileSync(file, JSON.stringify(bodies));
      return { file, bytes: Buffer.from(bodies[seeded[0].id], 'base64').length };
    };
    const jwtBodies = await writeBodies('jwt', lists);
    const cwtBodies = await writeBodies('cwt', cwtLists);
    const bodyBytes = jwtBodies.bytes;
    const cwtBodyBytes = cwtBodies.bytes;
    const baseline = await startChildServer(join(here, 'servers/bare-server.mjs'), {
      NODE_ENV: 'production',
      BODIES_FILE: jwtBodies.file,
    });
    const cwtBaseline = await startChildServer(join(here, 'servers/bare-server.mjs'), {
      NODE_ENV: 'production',
      BODIES_FILE: cwtBodies.file,
      CONTENT_TYPE: 'application/statuslist+cwt',
    });
    try {
      const pick = () => lists[Math.floor(Math.random() * lists.length)];
      const getService = () => ({ path: `/status-lists/${pick().id}` });
      const getBaseline = () => ({ path: `/status-lists/${pick().id}` });
      const revalidateService = () => {
        const list = pick();
        return { path: `/status-lists/${list.id}`, headers: { 'if-none-match': list.etag } };
      };
      const revalidateBaseline = () => ({
        path: `/status-lists/${pick().id}`,
        headers: { 'if-none-match': '"baseline"' },
      });
      const pickCwt = () => cwtLists[Math.floor(Math.random() * cwtLists.length)];
      const getCwt = () => ({ path: `/status-lists/${pickCwt().id}` });
      const revalidateCwt = () => {
        const list = pickCwt();
        return { path: `/status-lists/${list.id}`, headers: { 'if-none-match': list.etag } };
      };
      const revalidateCwtBaseline = () => ({
        path: `/status-lists/${pickCwt().id}`,
        headers: { 'if-none-match': '"baseline"' },
      });

      // Warm-up: every path of every server, so the JIT has seen them before any slice counts.
      for (const [server, pickRequest, status] of [
        [service, getService, 200],
        [baseline, getBaseline, 200],
        [service, revalidateService, 304],
        [baseline, revalidateBaseline, 304],
        [service, getCwt, 200],
        [cwtBaseline, getCwt, 200],
        [service, revalidateCwt, 304],
        [cwtBaseline, revalidateCwtBaseline, 304],
      ]) {
        await runLoad({ url: server.url, connections, durationSeconds: 2, pickRequest, expectStatus: status });
      }
      const measuredFrom = (Date.now() - startedAt) / 1000;
      const results = {
        get: await compare(service, baseline, getService, getBaseline, 200),
        revalidate: await compare(service, baseline, revalidateService, revalidateBaseline, 304),
        'cwt get': await compare(service, cwtBaseline, getCwt, getCwt, 200),
        'cwt revalidate': await compare(service, cwtBaseline, revalidateCwt, revalidateCwtBaseline, 304),
      };
      // The same service answering CWT GETs against JWT GETs in alternating slices: what a
      // CWT read costs beside a JWT read, free of the baselines and of bursts between compares.
      // And bare Fastify answering the same bytes, the same way: what the rate change alone costs.
      const cwtOverJwt = {
        ...(await compare(service, service, getCwt, getService, 200)),
        bare: await compare(cwtBaseline, baseline, getCwt, getBaseline, 200),
      };
      // PGlite is one process's database: the metrics-off twin needs a server to share.
      if (!databaseUrl) return { store, bodyBytes, cwtBodyBytes, measuredFrom, results, cwtOverJwt };
      const builds = compareTree
        ? await compareWithTree(service, serviceEnv, [
            ['GET 200', getService, 200],
            ['If-None-Match 304', revalidateService, 304],
          ])
        : undefined;
      const withoutMetrics = await startChildServer(join(here, 'servers/status-list-server.mjs'), {
        ...serviceEnv,
        METRICS_ENABLED: 'false',
      });
      try {
        await runLoad({
          url: withoutMetrics.url,
          connections,
          durationSeconds: 2,
          pickRequest: getService,
          expectStatus: 200,
        });
        const scraping = startScraping(`http://127.0.0.1:${metricsPort}/metrics`);
        const metrics = await compare(service, withoutMetrics, getService, getService, 200);
        return {
          store,
          bodyBytes,
          cwtBodyBytes,
          measuredFrom,
          results,
          cwtOverJwt,
          metrics: { ...metrics, scrapes: scraping.stop() },
          builds,
        };
      } finally {
        await withoutMetrics.stop();
      }
    } finally {
      await baseline.stop();
      await cwtBaseline.stop();
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (pg && databaseUrl) {
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists "${new URL(databaseUrl).pathname.slice(1)}"`);
      await admin.end();
      await pg.destroy();
    }
  }
}

const STORE_NAMES = { postgres: 'PostgreSQL', pglite: 'PGlite' };
const fmt = (n) => n.toFixed(0).padStart(8);
const cpu = (side) =>
  side.cpuMicrosPerRequest === undefined ? '     n/a' : `${side.cpuMicrosPerRequest.toFixed(1).padStart(6)} µs`;
const loadCpu = (side) =>
  side.loadCpuMicrosPerRequest === undefined ? '     n/a' : `${side.loadCpuMicrosPerRequest.toFixed(1).padStart(6)} µs`;
const rows = [];
let serviceErrors = 0;
for (const store of stores) {
  const { bodyBytes, cwtBodyBytes, measuredFrom, results, cwtOverJwt, metrics, builds } = await benchStore(store);
  const name = STORE_NAMES[store];
  console.log(
    `\nstatus-list-read on ${name}: ${listCount} lists of each form, ${bodyBytes}-byte JWTs and ${cwtBodyBytes}-byte CWTs, ${connections} connections, ${duration} s per side in ${sliceSeconds} s slices`,
  );
  if (process.env.BENCH_PROFILE_DIR)
    console.log(
      `  (load from ${measuredFrom.toFixed(0)} s after the service started: profile-summary --from ${measuredFrom.toFixed(0)})`,
    );
  console.log(
    '                  service req/s   baseline req/s   ratio   service p99   baseline p99   server CPU/request (service, baseline)   load generator CPU/request (service, baseline)   errors',
  );
  for (const [kind, r] of Object.entries(results)) {
    console.log(
      `  ${kind.padEnd(14)} ${fmt(r.service.requestsPerSecond)}        ${fmt(r.baseline.requestsPerSecond)}        ${r.ratio.toFixed(2)}   ${String(r.service.p99Ms).padStart(6)} ms    ${String(r.baseline.p99Ms).padStart(6)} ms    ${cpu(r.service)}, ${cpu(r.baseline)}                 ${loadCpu(r.service)}, ${loadCpu(r.baseline)}                         ${r.service.errors + r.baseline.errors}`,
    );
    serviceErrors += r.service.errors;
  }
  console.log(
    `ratio on ${name}: GET 200 = ${results.get.ratio.toFixed(2)}, 304 = ${results.revalidate.ratio.toFixed(2)}; CWT GET 200 = ${results['cwt get'].ratio.toFixed(2)}, CWT 304 = ${results['cwt revalidate'].ratio.toFixed(2)} (target >= ${TARGET.toFixed(2)} each)`,
  );
  console.log(
    `  CWT GETs over JWT GETs on the same server, alternating slices: service ${fmt(cwtOverJwt.service.requestsPerSecond).trim()} vs ${fmt(cwtOverJwt.baseline.requestsPerSecond).trim()} req/s, server CPU ${cpu(cwtOverJwt.service).trim()} vs ${cpu(cwtOverJwt.baseline).trim()}/request (JWT ÷ CWT ${cpuRatio(cwtOverJwt).toFixed(2)}); bare Fastify ${fmt(cwtOverJwt.bare.service.requestsPerSecond).trim()} vs ${fmt(cwtOverJwt.bare.baseline.requestsPerSecond).trim()} req/s, ${cpu(cwtOverJwt.bare.service).trim()} vs ${cpu(cwtOverJwt.bare.baseline).trim()}/request (JWT ÷ CWT ${cpuRatio(cwtOverJwt.bare).toFixed(2)}): service over bare ${cwtCostRatio(cwtOverJwt).toFixed(2)} (target >= ${CWT_OVER_JWT_TARGET.toFixed(2)})`,
  );
  serviceErrors += cwtOverJwt.service.errors + cwtOverJwt.baseline.errors;
  serviceErrors += cwtOverJwt.bare.service.errors + cwtOverJwt.bare.baseline.errors;
  if (metrics) {
    console.log(
      `  metrics on vs off, GET 200: ${fmt(metrics.service.requestsPerSecond).trim()} vs ${fmt(metrics.baseline.requestsPerSecond).trim()} req/s, p99 ${metrics.service.p99Ms} vs ${metrics.baseline.p99Ms} ms, server CPU ${cpu(metrics.service).trim()} vs ${cpu(metrics.baseline).trim()}/request, ${metrics.scrapes} scrapes`,
    );
    console.log(
      `metrics ratio on ${name}: ${metrics.ratio.toFixed(3)} = ${((1 - metrics.ratio) * 100).toFixed(1)} % overhead (target ratio >= ${METRICS_TARGET.toFixed(2)})`,
    );
    serviceErrors += metrics.service.errors + metrics.baseline.errors;
  }
  for (const build of builds ?? []) {
    const ratioCpu = build.service.cpuMicrosPerRequest / build.baseline.cpuMicrosPerRequest;
    console.log(
      `  ${build.kind}, this build vs ${compareTree}: ${fmt(build.service.requestsPerSecond).trim()} vs ${fmt(build.baseline.requestsPerSecond).trim()} req/s (ratio ${build.ratio.toFixed(3)}), server CPU ${cpu(build.service).trim()} vs ${cpu(build.baseline).trim()}/request (this ÷ other ${ratioCpu.toFixed(3)})`,
    );
    serviceErrors += build.service.errors + build.baseline.errors;
    rows.push({
      metric: `${build.kind}: server CPU µs per request, this build over BENCH_COMPARE_TREE's, ${name}, alternating slices`,
      value: build.service.cpuMicrosPerRequest?.toFixed(1) ?? 'n/a',
      baseline: `${build.baseline.cpuMicrosPerRequest?.toFixed(1) ?? 'n/a'} µs (the other build)`,
      ratio: ratioCpu,
      target: 'informative',
      pass: true,
    });
  }
  const cpuNote = (r) =>
    r.service.cpuMicrosPerRequest === undefined
      ? ''
      : `, server CPU ${r.service.cpuMicrosPerRequest.toFixed(0)} vs ${r.baseline.cpuMicrosPerRequest.toFixed(0)} µs/request`;
  rows.push(
    {
      metric: `GET 200 req/s, ${name}, ${listCount} lists (p99 ${results.get.service.p99Ms} ms${cpuNote(results.get)})`,
      value: fmt(results.get.service.requestsPerSecond).trim(),
      baseline: `${fmt(results.get.baseline.requestsPerSecond).trim()} (bare Fastify)`,
      ratio: results.get.ratio,
      target: `>= ${TARGET.toFixed(2)}`,
      pass: results.get.ratio >= TARGET,
    },
    {
      metric: `If-None-Match 304 req/s, ${name} (p99 ${results.revalidate.service.p99Ms} ms${cpuNote(results.revalidate)})`,
      value: fmt(results.revalidate.service.requestsPerSecond).trim(),
      baseline: `${fmt(results.revalidate.baseline.requestsPerSecond).trim()} (bare Fastify)`,
      ratio: results.revalidate.ratio,
      target: `>= ${TARGET.toFixed(2)}`,
      pass: results.revalidate.ratio >= TARGET,
    },
    {
      metric: `CWT GET 200 req/s, ${name}, ${listCount} lists (p99 ${results['cwt get'].service.p99Ms} ms${cpuNote(results['cwt get'])})`,
      value: fmt(results['cwt get'].service.requestsPerSecond).trim(),
      baseline: `${fmt(results['cwt get'].baseline.requestsPerSecond).trim()} (bare Fastify, ${cwtBodyBytes} bytes)`,
      ratio: results['cwt get'].ratio,
      target: `>= ${TARGET.toFixed(2)}`,
      pass: results['cwt get'].ratio >= TARGET,
    },
    {
      metric: `CWT If-None-Match 304 req/s, ${name} (p99 ${results['cwt revalidate'].service.p99Ms} ms${cpuNote(results['cwt revalidate'])})`,
      value: fmt(results['cwt revalidate'].service.requestsPerSecond).trim(),
      baseline: `${fmt(results['cwt revalidate'].baseline.requestsPerSecond).trim()} (bare Fastify)`,
      ratio: results['cwt revalidate'].ratio,
      target: `>= ${TARGET.toFixed(2)}`,
      pass: results['cwt revalidate'].ratio >= TARGET,
    },
  );
  rows.push({
    metric: `server CPU per JWT GET 200 ÷ per CWT GET 200, the service over bare Fastify answering the same bytes, ${name} (service ${cpu(cwtOverJwt.baseline).trim()} ÷ ${cpu(cwtOverJwt.service).trim()}, bare ${cpu(cwtOverJwt.bare.baseline).trim()} ÷ ${cpu(cwtOverJwt.bare.service).trim()})`,
    value: cpuRatio(cwtOverJwt).toFixed(3),
    baseline: `${cpuRatio(cwtOverJwt.bare).toFixed(3)} (bare Fastify)`,
    ratio: cwtCostRatio(cwtOverJwt),
    target: `>= ${CWT_OVER_JWT_TARGET.toFixed(2)}`,
    pass: cwtCostRatio(cwtOverJwt) >= CWT_OVER_JWT_TARGET,
  });
  if (metrics) {
    rows.push({
      metric: `GET 200 req/s with metrics on (scraped every second), ${name} (p99 ${metrics.service.p99Ms} ms${cpuNote(metrics)})`,
      value: fmt(metrics.service.requestsPerSecond).trim(),
      baseline: `${fmt(metrics.baseline.requestsPerSecond).trim()} (METRICS_ENABLED=false)`,
      ratio: metrics.ratio,
      target: `>= ${METRICS_TARGET.toFixed(2)}`,
      pass: metrics.ratio >= METRICS_TARGET,
    });
  }
}
console.log('');
writeResult('status-list-read', rows);
if (serviceErrors > 0) {
  console.error('the service answered errors during the run');
  process.exit(1);
}
