import { captureLogger } from '@tessera/service-kit/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { createBackgroundJobs, type BackgroundJobsDeps } from '../../src/jobs/background-jobs.js';

// A replica stopped while the webhook worker's LISTEN is still being set up (a replica
// closed right after it started, as the key-rotation tests do) undoes the LISTEN once it
// is up. By then its database may be closing, so the undo can fail with the connection;
// that failure is logged and never left as an unhandled rejection, which would fail
// the process (and the test run) for a shutdown that went as it should.

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

/** The jobs with a LISTEN whose set-up the test finishes; nothing else runs before stop. */
function jobsWithPendingListen() {
  const capture = captureLogger('verifier', 'warn');
  let finishListen: ((unlisten: () => Promise<void>) => void) | undefined;
  const deps = {
    logger: capture.logger,
    lifetimes: { expiryIntervalMs: 60_000, purgeIntervalMs: 60_000, retentionDays: 30 },
    webhooks: {
      deliveries: { slots: { idle: async () => undefined } },
      pollIntervalMs: 60_000,
      idlePollIntervalMs: 60_000,
      listen: () =>
        new Promise<() => Promise<void>>((resolve) => {
          finishListen = resolve;
        }),
    },
    registrationCertificateExpiry: {},
    // Read at start in the background; it fails here, which start logs and carries on.
    trustListsOfOpenSessions: {},
  } as unknown as BackgroundJobsDeps;
  return { jobs: createBackgroundJobs(deps), capture, finishListen: () => finishListen };
}

describe('the webhook worker stopped while its LISTEN is being set up', () => {
  test('undoes the LISTEN once it is up', async () => {
    const { jobs, finishListen } = jobsWithPendingListen();
    jobs.start();
    await jobs.stop();
    let undone = 0;
    finishListen()!(async () => {
      undone += 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(undone).toBe(1);
  });

  test('logs an undo that fails with the closed connection instead of leaving it unhandled', async () => {
    process.on('unhandledRejection', onUnhandled);
    const { jobs, capture, finishListen } = jobsWithPendingListen();
    jobs.start();
    await jobs.stop();
    finishListen()!(() =>
      Promise.reject(Object.assign(new Error('write CONNECTION_ENDED'), { code: 'CONNECTION_ENDED' })),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    expect(capture.lines().some((line) => line.includes('webhook worker: LISTEN not stopped cleanly'))).toBe(true);
  });
});
