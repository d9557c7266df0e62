import type { TestProject } from 'vitest/node';
import { describeBackends, startTestBackends, type TestBackendInfo } from './backends.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tesseraBackends: TestBackendInfo;
  }
}

/** Vitest global setup: finds or starts PostgreSQL and NATS once for the run, and says which. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backends = await startTestBackends();
  project.provide('tesseraBackends', backends.info);
  process.stdout.write(`\n[tessera] ${describeBackends(backends.info)}\n\n`);
  return () => backends.stop();
}
