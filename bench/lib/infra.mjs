// PostgreSQL and NATS for benchmarks: BENCH_DATABASE_URL / BENCH_NATS_URL when set,
// otherwise private servers started from the local binaries (as the tests do).
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { startPrivateNats, startPrivatePostgres } from '@tessera/service-kit/testing/backends';

/**
 * `countStatements`: a private cluster is restarted with pg_stat_statements loaded, so a
 * benchmark can count the statements of a window (bench/lib/postgres-observer.mjs); a
 * BENCH_DATABASE_URL server is used as it is (its shared_preload_libraries decide).
 */
export async function startBenchPostgres({ countStatements = false } = {}) {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, destroy: async () => {} };
  const server = await startPrivatePostgres();
  if (!server) throw new Error('benchmarks need PostgreSQL: set BENCH_DATABASE_URL or install the postgresql package');
  if (countStatements) {
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
    await admin.end();
    await server.stop();
    await server.start();
  }
  return server;
}

export async function startBenchNats() {
  if (process.env.BENCH_NATS_URL) return { url: process.env.BENCH_NATS_URL, destroy: async () => {} };
  const server = await startPrivateNats();
  if (!server) throw new Error('benchmarks need NATS: set BENCH_NATS_URL or install nats-server');
  return server;
}

/** A fresh database on the server, for one benchmark run. */
export async function createBenchDatabase(adminUrl, prefix = 'bench') {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Resident set size of a process in bytes (Linux /proc). */
export async function residentBytes(pid) {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}
