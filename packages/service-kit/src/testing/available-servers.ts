import { inject } from 'vitest';
import type { TestBackendInfo } from './backends.js';

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
    process.stderr.write(`[tessera] skipping "${suite}": needs a ${what === 'postgres' ? 'PostgreSQL' : 'NATS'} server, none found\n`);
  }
  return missing;
}
