// Runs a built bundle as Kubernetes would: the Deployment's migrate init container's command with its
// env, then the image's CMD with the image's ENV + the base ConfigMap + Secrets, and
// only network addresses changed for this machine. Then readiness, the image's own
// HEALTHCHECK command, real HTTP calls, and SIGTERM -> exit 0.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import postgres from 'postgres';
import { assert, CheckFailure, run, sleep, tail } from './util.mjs';

export const OIDC = { issuer: 'https://issuer.infra-check.invalid/realms/tessera', audience: 'tessera-infra-check' };

/** A signing key and its public JWKS file, as an identity provider would publish. */
export async function makeOidc(dir) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'infra-check', alg: 'ES256', use: 'sig' };
  const file = join(dir, 'jwks.json');
  writeFileSync(file, JSON.stringify({ keys: [jwk] }));
  const token = (claims) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'infra-check', typ: 'JWT' })
      .setIssuer(OIDC.issuer)
      .setAudience(OIDC.audience)
      .setSubject('infra-check')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  return { file, token };
}

/** Creates (or re-creates) a database on the CI server; returns its URL. */
export async function createDatabase(adminUrl, name) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl, name) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The env a container of `podSpec` sees: image ENV, envFrom ConfigMaps, env (Secrets resolved). */
export function containerEnv({ imageEnv, container, configMaps, secrets }) {
  const env = { ...imageEnv };
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, configMaps.get(source.configMapRef.name)?.data ?? {});
  }
  for (const variable of container.env ?? []) {
    if ('value' in variable) env[variable.name] = String(variable.value);
    const ref = variable.valueFrom?.secretKeyRef;
    if (ref) {
      const value = secrets[ref.name]?.[ref.key];
      if (value === undefined && !ref.optional)
        throw new CheckFailure(`${variable.name}: Secret ${ref.name} key ${ref.key} is not provided`);
      if (value !== undefined) env[variable.name] = value;
    }
  }
  return env;
}

/**
 * The container's volumes as the kubelet makes them, under `root` + mountPath: a Secret's
 * keys as files owned by root and the pod's fsGroup with the volume's defaultMode; an
 * emptyDir as a directory the image's user owns (the only writable place, like /tmp in
 * the pod). Variables naming a path under a mount are pointed at the copy, and TMPDIR at
 * the /tmp mount. Returns the env with those paths rewritten.
 */
export function mountVolumes({ podSpec, container, secrets, env, root, image }) {
  const rewritten = { ...env };
  const group = podSpec.securityContext?.fsGroup;
  for (const mount of container.volumeMounts ?? []) {
    const volume = (podSpec.volumes ?? []).find((v) => v.name === mount.name);
    const dir = join(root, mount.mountPath);
    if (volume?.secret) {
      const data = secrets[volume.secret.secretName];
      if (!data) {
        if (volume.secret.optional) continue;
        throw new CheckFailure(`volume ${volume.name}: Secret ${volume.secret.secretName} is not provided`);
      }
      mkdirSync(dir, { recursive: true });
      for (const [key, value] of Object.entries(data)) {
        const file = join(dir, key);
        writeFileSync(file, value);
        if (group !== undefined && image.runAs) chownSync(file, 0, group);
        chmodSync(file, volume.secret.defaultMode ?? 0o644);
      }
    } else if (volume?.emptyDir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (image.runAs) chownSync(dir, image.runAs.uid, group ?? image.runAs.gid);
      if (mount.mountPath === '/tmp') rewritten.TMPDIR = dir;
    } else continue;
    // Judged on the pod's paths (env), not on copies already moved here: this machine's
    // temp dir may itself be under a mount path such as /tmp.
    for (const [name, value] of Object.entries(env)) {
      if (typeof value === 'string' && value.startsWith(`${mount.mountPath}/`))
        rewritten[name] = join(dir, value.slice(mount.mountPath.length + 1));
    }
  }
  return rewritten;
}

/**
 * The bundle as the image holds it: a copy of `/app` that nobody may write (root-owned in
 * the image, read-only root filesystem in the pod), run as the Dockerfile's numeric USER
 * when this process may switch users (root, as CI runs; `setpriv` from util-linux).
 */
export function sealBundle(image, dir) {
  cpSync(image.appDir, dir, { recursive: true, verbatimSymlinks: true });
  const [uid, gid] = String(image.user ?? '')
    .split(':')
    .map(Number);
  const root = process.getuid?.() === 0;
  const readOnly = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) readOnly(child);
      else if (entry.isFile()) chmodSync(child, statSync(child).mode & 0o555);
    }
    chmodSync(path, 0o555);
  };
  readOnly(dir);
  return { ...image, appDir: dir, runAs: root && uid > 0 ? { uid, gid: gid || uid } : undefined };
}

/** `argv` as the image's user: `setpriv` in front when the bundle is to run as another uid. */
function asImageUser(image, argv) {
  const [command, ...args] = argv;
  const program = command === 'node' ? process.execPath : command;
  if (!image.runAs) return [program, args];
  return [
    'setpriv',
    [`--reuid=${image.runAs.uid}`, `--regid=${image.runAs.gid}`, '--clear-groups', '--', program, ...args],
  ];
}

/** Runs `argv` in the image's WORKDIR with exactly `env` (plus PATH/HOME); resolves with its exit. */
export function runInImage(image, argv, env, timeoutMs = 60_000) {
  const [command, args] = asImageUser(image, argv);
  return run(command, args, {
    cwd: image.appDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeoutMs,
  });
}

/** Starts the image's CMD; returns a handle with the log and an exit promise. */
export function startInImage(image, env) {
  const [command, args] = asImageUser(image, image.cmd);
  const child = spawn(command, args, {
    cwd: image.appDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, log: () => log };
}

export async function waitReady(baseUrl, handle, timeoutMs = 30_000) {
  const started = Date.now();
  let last = 'no answer';
  let done = false;
  handle.exited.then(() => (done = true));
  while (Date.now() - started < timeoutMs) {
    if (done) throw new CheckFailure(`the service exited before it was ready\n${tail(handle.log(), 20)}`);
    try {
      const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2000) });
      const body = await response.text();
      if (response.status === 200) return { ms: Date.now() - started, body };
      last = `${response.status} ${body}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(250);
  }
  throw new CheckFailure(`/health/ready not 200 after ${timeoutMs} ms (last: ${last})\n${tail(handle.log(), 20)}`);
}

export async function stop(handle, graceMs) {
  handle.child.kill('SIGTERM');
  const result = await Promise.race([handle.exited, sleep(graceMs + 5000).then(() => undefined)]);
  if (!result) {
    handle.child.kill('SIGKILL');
    throw new CheckFailure(`still running ${graceMs + 5000} ms after SIGTERM`);
  }
  assert(
    result.code === 0,
    `exit ${result.code ?? result.signal} after SIGTERM (expected 0)\n${tail(handle.log(), 15)}`,
  );
}

async function http(method, url, { headers = {}, body, redirect = 'follow' } = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    redirect,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A status list token as an issuer signs it (draft-ietf-oauth-status-list, JWT form). */
async function statusListJwt(baseUrl, id) {
  const { privateKey } = await generateKeyPair('ES256');
  const bits = Buffer.alloc(16, 0);
  bits[0] = 0b00000101;
  return new SignJWT({ status_list: { bits: 1, lst: deflateSync(bits).toString('base64url') }, ttl: 300 })
    .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', kid: 'issuer-1' })
    .setSubject(`${baseUrl}/status-lists/${id}`)
    .setIssuedAt()
    .sign(privateKey);
}

/**
 * Secrets a service's Deployment needs besides `<service>-secrets`, made as an operator
 * makes them (secret.example.yaml): the verifier's tessera-keys, the ecosystem's
 * trust-list CA with the image's own generator.
 */
export const EXTRA_SECRETS = {
  async verifier() {
    return { 'tessera-keys': { KEY_ENCRYPTION_KEY: randomSecrets().KEY_ENCRYPTION_KEY } };
  },
  async ecosystem({ image, dir }) {
    const result = await runInImage(
      image,
      ['node', 'dist/generate-trust-list-ca.js', dir, 'Infra Check Trust List CA'],
      {},
      30_000,
    );
    assert(
      result.code === 0,
      `node dist/generate-trust-list-ca.js exited ${result.code}: ${(result.stdout + result.stderr).trim()}`,
    );
    return {
      'ecosystem-trust-list-ca': {
        'tls.crt': readFileSync(join(dir, 'tls.crt'), 'utf8'),
        'tls.key': readFileSync(join(dir, 'tls.key'), 'utf8'),
      },
    };
  },
};

/** One or two real calls per service; returns a short description of what answered. */
export const SMOKE = {
  async console({ baseUrl }) {
    const ready = await http('GET', `${baseUrl}/health/ready`);
    // Ready without the services (none runs here): it reports them and serves its pages.
    assert(ready.status === 200, `GET /health/ready: ${ready.status} ${ready.text}`);
    const home = await http('GET', `${baseUrl}/`, { redirect: 'manual' });
    assert(
      home.status === 303 && home.headers.get('location') === '/sign-in?returnTo=%2F',
      `GET / without a session: ${home.status} ${home.headers.get('location')}, expected 303 to /sign-in`,
    );
    const signIn = await http('GET', `${baseUrl}/sign-in`);
    assert(signIn.status === 200 && signIn.text.includes('/sign-in/start'), `GET /sign-in: ${signIn.status}`);
    assert(!signIn.text.includes('/sign-in/development'), 'GET /sign-in offers the development sign-in in production');
    assert(
      signIn.headers.get('content-security-policy')?.includes("script-src 'self'"),
      `GET /sign-in: content-security-policy ${signIn.headers.get('content-security-policy')}`,
    );
    for (const path of ['/assets/console.css', '/assets/scripts/page.js', '/assets/vendor/chart.umd.min.js']) {
      const asset = await http('GET', `${baseUrl}${path}`);
      assert(asset.status === 200 && asset.text.length > 0, `GET ${path}: ${asset.status}`);
    }
    const forged = await http('POST', `${baseUrl}/sign-out`, { body: {} });
    assert(forged.status === 403, `POST /sign-out without the form token: ${forged.status}, expected 403`);
    return 'ready without the services; GET / 303 to sign-in; the provider sign-in only (no development sign-in), CSP; its style sheet, scripts and Chart.js; a form without its token 403';
  },
  async 'status-list'({ baseUrl, env }) {
    const id = randomUUID();
    const jwt = await statusListJwt(baseUrl, id);
    const anonymous = await http('POST', `${baseUrl}/status-lists`, { body: { id, jwt } });
    assert(anonymous.status === 401, `POST /status-lists without x-api-key: ${anonymous.status}, expected 401`);
    const created = await http('POST', `${baseUrl}/status-lists`, {
      headers: { 'x-api-key': env.API_KEY },
      body: { id, jwt },
    });
    assert(created.status === 201, `POST /status-lists: ${created.status} ${created.text}`);
    const read = await http('GET', `${baseUrl}/status-lists/${id}`, {
      headers: { accept: 'application/statuslist+jwt' },
    });
    assert(
      read.status === 200 && read.text === jwt,
      `GET /status-lists/${id}: ${read.status}, body ${read.text === jwt ? 'equal' : 'differs'}`,
    );
    assert(
      read.headers.get('content-type')?.startsWith('application/statuslist+jwt'),
      `GET: content-type ${read.headers.get('content-type')}`,
    );
    return 'POST /status-lists 401 without key, 201 with; GET returns the JWT byte for byte';
  },
  async ecosystem({ baseUrl, oidc }) {
    const anonymous = await http('GET', `${baseUrl}/v1/ecosystem/status`);
    assert(anonymous.status === 401, `GET /v1/ecosystem/status without a token: ${anonymous.status}, expected 401`);
    const token = await oidc.token({
      email: 'infra-check@tessera.invalid',
      realm_access: { roles: [] },
      resource_access: {},
    });
    const status = await http('GET', `${baseUrl}/v1/ecosystem/status`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert(
      status.status === 200 && status.json?.data?.enabled === true,
      `GET /v1/ecosystem/status: ${status.status} ${status.text}`,
    );
    const ca = await http('GET', `${baseUrl}/v1/trust-list-ca.pem`);
    assert(
      ca.status === 200 && ca.text.startsWith('-----BEGIN CERTIFICATE-----'),
      `GET /v1/trust-list-ca.pem: ${ca.status} ${ca.text.slice(0, 80)}`,
    );
    return 'GET /v1/ecosystem/status 401 without token, 200 {enabled:true} with a JWKS-file token; GET /v1/trust-list-ca.pem 200 (the configured CA)';
  },
  async verifier({ baseUrl, oidc }) {
    const ca = await http('GET', `${baseUrl}/oid4vp/platform-ca.pem`);
    assert(
      ca.status === 200 && ca.text.includes('-----BEGIN CERTIFICATE-----'),
      `GET /oid4vp/platform-ca.pem: ${ca.status}`,
    );
    const orgId = randomUUID();
    const anonymous = await http('GET', `${baseUrl}/v1/orgs/${orgId}/oid4vp/verifier`);
    assert(
      anonymous.status === 401,
      `GET /v1/orgs/{orgId}/oid4vp/verifier without a token: ${anonymous.status}, expected 401`,
    );
    const token = await oidc.token({
      email: 'infra-check@tessera.invalid',
      realm_access: { roles: [] },
      resource_access: { [orgId]: { roles: ['owner'] } },
    });
    const list = await http('GET', `${baseUrl}/v1/orgs/${orgId}/oid4vp/verifier`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert(
      list.status === 200 && list.json?.data?.totalItems === 0,
      `GET /v1/orgs/{orgId}/oid4vp/verifier: ${list.status} ${list.text}`,
    );
    return 'GET /oid4vp/platform-ca.pem 200 PEM; management list 401 without token, 200 empty page with one';
  },
};

export function randomSecrets() {
  return {
    API_KEY: randomBytes(24).toString('base64url'),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SESSION_SECRET: randomBytes(36).toString('base64url'),
    OIDC_CLIENT_SECRET: randomBytes(24).toString('base64url'),
  };
}
