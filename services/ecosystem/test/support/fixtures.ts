import { test } from 'vitest';
import { createHarness, type HarnessOptions } from './harness.js';
import { buildWorld } from './world.js';

/**
 * `test` with the file's `harness` (one app on a fresh database, closed after the file)
 * and `world` (the standard formation story on it, built when a test first asks for it).
 * `options` is a function when making them needs I/O (a NATS connection, a private server).
 */
export function harnessTest(options: HarnessOptions | (() => Promise<HarnessOptions>) = {}) {
  return test
    .extend('harness', { scope: 'file' }, async ({}, { onCleanup }) => {
      const harness = await createHarness(typeof options === 'function' ? await options() : options);
      onCleanup(() => harness.close());
      return harness;
    })
    .extend('world', { scope: 'file' }, async ({ harness }) => buildWorld(harness));
}

/** The usual test: default harness, standard world. */
export const ecosystemTest = harnessTest();
