import { spawnSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, connect as netConnect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Where the test run's PostgreSQL and NATS came from (ARCHITECTURE.md, Testing). */
export interface TestBackendInfo {
  /** `caFile`: the CA of the server's TLS certificate (TEST_DATABASE_CA_FILE; CI's server names "localhost"). */
  postgres: { source: 'env' | 'testcontainers' | 'local' | 'pglite'; adminUrl?: string; caFile?: string };
  nats: { source: 'env' | 'testcontainers' | 'local' | 'in-process'; url?: string };
}

export interface StartedBackends {
  info: TestBackendInfo;
  stop(): Promise<void>;
}

/** Finds or starts the test servers in the documented order: env, testcontainers, local binaries, embedded. */
export async function startTestBackends(env: NodeJS.ProcessEnv = process.env): Promise<StartedBackends> {
  const stops: Array<() => Promise<void>> = [];
  const info: TestBackendInfo = { postgres: { source: 'pglite' }, nats: { source: 'in-process' } };
  const docker = !env.TEST_DATABASE_URL || !env.TEST_NATS_URL ? await dockerAnswers() : false;

  if (env.TEST_DATABASE_URL) {
    info.postgres = {
      source: 'env',
      adminUrl: env.TEST_DATABASE_URL,
      ...(env.TEST_DATABASE_CA_FILE ? { caFile: env.TEST_DATABASE_CA_FILE } : {}),
    };
  } else if (docker) {
    const started = await startPostgresContainer();
    info.postgres = { source: 'testcontainers', adminUrl: started.url };
    stops.push(started.stop);
  } else {
    const local = await startLocalPostgres();
    if (local) {
      info.postgres = { source: 'local', adminUrl: local.url };
      stops.push(local.stop);
    }
  }

  if (env.TEST_NATS_URL) {
    info.nats = { source: 'env', url: env.TEST_NATS_URL };
  } else if (docker) {
    const started = await startNatsContainer();
    info.nats = { source: 'testcontainers', url: started.url };
    stops.push(started.stop);
  } else {
    const local = await startLocalNats();
    if (local) {
      info.nats = { source: 'local', url: local.url };
      stops.push(local.stop);
    }
  }
  return {
    info,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    },
  };
}

export function describeBackends(info: TestBackendInfo): string {
  const pg =
    info.postgres.source === 'pglite'
      ? 'PGlite (embedded; server-only tests skipped)'
      : `PostgreSQL server (${info.postgres.source})`;
  const nats =
    info.nats.source === 'in-process'
      ? 'in-process transport (NATS-only tests skipped)'
      : `NATS server (${info.nats.source})`;
  return `test backends: ${pg}; ${nats}`;
}

async function dockerAnswers(): Promise<boolean> {
  const socket = '/var/run/docker.sock';
  if (!process.env.DOCKER_HOST && !existsSync(socket)) return false;
  if (process.env.DOCKER_HOST) return true;
  return new Promise((resolve) => {
    const req = httpRequest({ socketPath: socket, path: '/_ping', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

async function startPostgresContainer() {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_PASSWORD: 'postgres' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  return {
    url: `postgres://postgres:postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`,
    stop: async () => void (await container.stop()),
  };
}

async function startNatsContainer() {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('nats:2.10-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forListeningPorts())
    .start();
  return {
    url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`,
    stop: async () => void (await container.stop()),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function findPostgresBin(): string | undefined {
  // CI says which binaries it installed (.ci/run exports TEST_PG_BIN).
  const fromEnv = process.env.TEST_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: run its binaries as the `postgres` user then. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

/** A PostgreSQL or NATS server this test run owns: it can be stopped and started again (fault tests). */
export interface PrivateServer {
  url: string;
  /** Stops the server; its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL cluster from local binaries, or resolves undefined when there
 * are none. With `tls`, the server also accepts TLS with that certificate and key (the TLS tests).
 */
export async function startPrivatePostgres(
  options: { tls?: { certFile: string; keyFile: string } } = {},
): Promise<PrivateServer | undefined> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tessera-pg-'));
  if (process.getuid?.() === 0) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pw.status !== 0) return undefined;
    chownSync(dir, Number(pw.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const tlsArgs = options.tls
    ? ` -c ssl=on -c ssl_cert_file=${copyForPostgres(options.tls.certFile, dir)} -c ssl_key_file=${copyForPostgres(options.tls.keyFile, dir)}`
    : '';
  const run = (command: string, args: string[]) => {
    const [cmd, argv] = asPostgresUser(command, args);
    return spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
  };
  const init = run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  if (init.status !== 0) return undefined;
  const start = async () => {
    const started = run(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400${tlsArgs}`,
      'start',
    ]);
    if (started.status !== 0) throw new Error(`pg_ctl start failed: ${started.stderr}`);
  };
  const stop = async () => {
    run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  try {
    await start();
  } catch {
    return undefined;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A copy of `file` in `dir` the server may read: PostgreSQL wants its key 0600 and its own. */
function copyForPostgres(file: string, dir: string): string {
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  chmodSync(copy, 0o600);
  const owner = statSync(dir);
  chownSync(copy, owner.uid, owner.gid);
  return copy;
}

async function startLocalPostgres(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  const server = await startPrivatePostgres();
  return server && { url: server.url, stop: server.destroy };
}

/** The nats-server on PATH, if any. */
export function findNatsServerBinary(): string | undefined {
  return spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim() || undefined;
}

/**
 * Starts a throwaway nats-server from the local binary, or resolves undefined when there is
 * none. `config` runs it with that configuration file (variables it references from `env`);
 * `tls` makes the URL `tls://`.
 */
export async function startPrivateNats(
  options: { config?: string; env?: Record<string, string>; tls?: boolean } = {},
): Promise<PrivateServer | undefined> {
  const binary = findNatsServerBinary();
  if (!binary) return undefined;
  // A port found free may be taken by a parallel test before the server binds it, and a
  // loaded machine may take seconds to start it: a few attempts, each on a fresh port.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const started = await startNatsOnce(binary, await freePort(), options);
    if ('server' in started) return started.server;
    if (attempt === 3)
      process.stderr.write(
        `nats-server did not start (${options.config ?? 'no config'}): ${started.output.slice(-2000)}\n`,
      );
  }
  return undefined;
}

async function startNatsOnce(
  binary: string,
  port: number,
  options: { config?: string; env?: Record<string, string>; tls?: boolean },
): Promise<{ server: PrivateServer } | { output: string }> {
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    const args = [...(options.config ? ['-c', options.config] : []), '-a', '127.0.0.1', '-p', String(port)];
    const spawned = spawn(binary, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    child = spawned;
    // What the server says on the way out explains a failed start; bounded, it is only read then.
    spawned.stderr?.on('data', (chunk: Buffer) => void (output = (output + chunk.toString('utf8')).slice(-4000)));
    if (!(await waitForPort(port, 15_000, spawned))) throw new Error('nats-server did not start');
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  try {
    await start();
  } catch {
    await stop();
    return { output };
  }
  return { server: { url: `${options.tls ? 'tls' : 'nats'}://127.0.0.1:${port}`, stop, start, destroy: stop } };
}

async function startLocalNats(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  const server = await startPrivateNats();
  return server && { url: server.url, stop: server.destroy };
}

async function waitForPort(port: number, timeoutMs: number, server?: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A server that exited will never listen: no use waiting out the deadline.
    if (server && server.exitCode !== null) return false;
    const open = await new Promise<boolean>((resolve) => {
      const socket = netConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
