// Shared set-up of the verifier benchmarks: PostgreSQL (bench database), the verifier
// as a production-configured child process (OIDC from a JWKS file whose tokens are
// signed here, generated KEY_ENCRYPTION_KEY, PUBLIC_BASE_URL = its own address), and
// a management client with an organisation admin's token.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startChildServer } from './child-server.mjs';
import { createBenchDatabase, startBenchPostgres } from './infra.mjs';

const OIDC_ISSUER = 'https://idp.bench.tessera.test/realms/tessera';
const OIDC_AUDIENCE = 'tessera-verifier';
const serverScript = fileURLToPath(new URL('./verifier-server.mjs', import.meta.url));

/** A TCP port free right now on 127.0.0.1 (the service's PUBLIC_BASE_URL must be known before it starts). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PostgreSQL (or uses BENCH_DATABASE_URL's server), a fresh database and the
 * verifier child. `env` adds or overrides variables (e.g. DB_POOL_SIZE). The token is
 * an admin of `orgId` and of `otherOrgs`. `countStatements` loads pg_stat_statements
 * into a private cluster (bench/lib/postgres-observer.mjs).
 * Returns { url, child, metricsUrl, startTwin, pg, databaseUrl, orgId, call, token, managementPath, stop }.
 */
export async function startVerifierBench({
  orgId = 'org-bench',
  otherOrgs = [],
  env = {},
  countStatements = false,
} = {}) {
  const pg = await startBenchPostgres({ countStatements });
  const databaseUrl = await createBenchDatabase(pg.url, 'bench_verifier');
  const dir = mkdtempSync(join(tmpdir(), 'bench-verifier-'));
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] }),
  );
  const port = await freePort();
  const metricsPort = await freePort();
  // One environment for the verifier and any twin of it (same database, keys and identity provider).
  const childEnv = {
    // A metrics port of its own: several benchmark verifiers may run on one host, and the bench may scrape it.
    METRICS_PORT: process.env.METRICS_PORT ?? String(metricsPort),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    OIDC_ISSUER,
    OIDC_AUDIENCE,
    OIDC_JWKS_FILE: jwksFile,
    WALLET_RATE_LIMIT_MAX: '1000000',
    // Benchmarks hit the same sessions many times: the per-session limits would answer 429.
    SESSION_REQUEST_FETCH_LIMIT: '1000000',
    SESSION_RESPONSE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    // The benchmark's own loopback NATS is plain and anonymous: local only.
    ...(process.env.BENCH_NATS_URL ? { NATS_URL: process.env.BENCH_NATS_URL, NATS_ALLOW_INSECURE: 'true' } : {}),
    ...env,
  };
  const startOn = (listenPort, extra = {}, script = serverScript) =>
    startChildServer(
      script,
      { ...childEnv, PORT: String(listenPort), PUBLIC_BASE_URL: `http://localhost:${listenPort}`, ...extra },
      { ipc: Boolean(process.env.BENCH_PROFILE_DIR) },
    );
  let service;
  try {
    service = await startOn(port);
  } catch (error) {
    await pg.destroy();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const token = await new SignJWT({
    realm_access: { roles: [] },
    resource_access: Object.fromEntries([orgId, ...otherOrgs].map((org) => [org, { roles: ['admin'] }])),
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'JWT' })
    .setIssuer(OIDC_ISSUER)
    .setAudience(OIDC_AUDIENCE)
    .setSubject('bench-admin')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const base = `/v1/orgs/${orgId}/oid4vp`;
  /** A management call: `path` relative to /v1/orgs/{org}/oid4vp (org default `orgId`). */
  async function call(method, path, body, org = orgId) {
    const response = await fetch(`${service.url}/v1/orgs/${org}/oid4vp${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  return {
    url: service.url,
    child: service.child,
    /** The verifier's `/metrics` (on its METRICS_PORT). */
    metricsUrl: `http://127.0.0.1:${childEnv.METRICS_PORT}/metrics`,
    /**
     * Another verifier process on the same database, keys and identity provider, with `env` over the
     * first one's (e.g. METRICS_ENABLED=false); with `tree`, the verifier built in that checkout of
     * this repository (its bench/lib/verifier-server.mjs, installed and built), to compare two builds.
     */
    async startTwin(extra = {}, { tree } = {}) {
      const script = tree ? join(tree, 'bench/lib/verifier-server.mjs') : serverScript;
      return startOn(await freePort(), { METRICS_PORT: '0', ...extra }, script);
    },
    pg,
    databaseUrl,
    orgId,
    token,
    managementPath: base,
    call,
    async stop() {
      await service.stop();
      await pg.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once; resolves with the results in order. */
export async function pool(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** DCQL query for one SD-JWT VC with two claims. */
export function pidQuery(vct) {
  return {
    combine: 'all',
    credentials: [
      {
        id: 'pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: [vct] },
        claims: [{ path: ['given_name'] }, { path: ['family_name'] }],
      },
    ],
  };
}

/** Creates a session through the management API; throws unless 201. */
export async function createSession(bench, verifierId, body, org = bench.orgId) {
  const created = await bench.call('POST', `/presentation?verifierId=${encodeURIComponent(verifierId)}`, body, org);
  if (created.status !== 201) throw new Error(`session not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

/** The request object as a wallet fetches it (GET on the request_uri); its payload, unverified. */
export async function fetchRequestObject(url, authorizationRequestId) {
  const response = await fetch(`${url}/oid4vp/authorization-requests/${authorizationRequestId}`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`request object: ${response.status} ${text}`);
  return JSON.parse(Buffer.from(text.split('.')[1], 'base64url').toString('utf8'));
}
