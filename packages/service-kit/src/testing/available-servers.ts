import { inject } from 'vitest';
import { findNatsServerBinary, findPostgresBin, type TestBackendInfo } from './backends.js';

/** The backends the global setup found (see `global-setup.ts`). */
export function testBackends(): TestBackendInfo {
  return inject('tesseraBackends');
}

/** True when tests run against a PostgreSQL server (not the embedded PGlite). */
export function hasServerPostgres(): boolean {
  return !!testBackends().postgres.adminUrl;
}

/** True when tests run against a NATS server (not the in-process transport). */
export function hasNatsServer(): boolean {
  return !!testBackends().nats.url;
}

const warned = new Set<string>();
/**
 * For `describe.skipIf(...)`: true (skip) when the named server is missing, with a
 * one-line warning. The only skips the project allows (ARCHITECTURE.md, Testing).
 */
export function missingServer(what: 'postgres' | 'nats', suite: string): boolean {
  const missing = what === 'postgres' ? !hasServerPostgres() : !hasNatsServer();
  if (missing && !warned.has(suite)) {
    warned.add(suite);
    process.stderr.write(
      `[tessera] skipping "${suite}": needs a ${what === 'postgres' ? 'PostgreSQL' : 'NATS'} server, none found\n`,
    );
  }
  return missing;
}

/**
 * For `describe.skipIf(...)` in tests that start their own, differently configured server
 * (TLS, NATS users) from local binaries: true (skip) when the binaries are absent, with a
 * one-line warning. CI installs both (TEST_PG_BIN, nats-server on PATH), so it skips nothing.
 */
export function missingServerBinary(what: 'postgres' | 'nats', suite: string): boolean {
  const missing = what === 'postgres' ? !findPostgresBin() : !findNatsServerBinary();
  if (missing && !warned.has(suite)) {
    warned.add(suite);
    process.stderr.write(
      `[tessera] skipping "${suite}": needs ${what === 'postgres' ? 'PostgreSQL binaries (TEST_PG_BIN or initdb)' : 'nats-server on PATH'}, none found\n`,
    );
  }
  return missing;
}
