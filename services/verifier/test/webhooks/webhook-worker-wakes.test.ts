import { describe, expect, it } from 'vitest';
import { silentLogger } from '@tessera/service-kit/testing';
import { createPeriodicJob } from '../../src/jobs/periodic-job.js';
import { createDeskSession, failSession, putWebhook, verifySession, webhookTest } from './support.js';

// Issue 27, item 2: the webhook worker issues no statement while no delivery is pending
// (a whole verification without webhooks costs it nothing), and is woken by PostgreSQL
// (LISTEN/NOTIFY, the triggers of migration 0015) the moment a delivery is written.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic job: idle runs', () => {
  it('after an idle run waits idleIntervalMs instead of intervalMs, and a wake runs it at once', async () => {
    let runs = 0;
    const job = createPeriodicJob({
      name: 'test job',
      intervalMs: 10,
      idleIntervalMs: 60_000,
      logger: silentLogger(),
      run: () => {
        runs += 1;
        return Promise.resolve('idle' as const);
      },
    });
    job.start();
    await sleep(300);
    // One run at start, then nothing for 300 ms although the interval is 10 ms.
    expect(runs).toBe(1);
    job.wake();
    await sleep(100);
    expect(runs).toBe(2);
    await job.stop();
  });

  it('a run that is not idle keeps the interval', async () => {
    let runs = 0;
    const job = createPeriodicJob({
      name: 'test job',
      intervalMs: 20,
      idleIntervalMs: 60_000,
      logger: silentLogger(),
      run: () => {
        runs += 1;
        return Promise.resolve(false);
      },
    });
    job.start();
    await sleep(300);
    expect(runs).toBeGreaterThan(3);
    await job.stop();
  });
});

// Both polls far beyond the test's patience: only the notification can bring the worker in time.
const test = webhookTest({ WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_IDLE_POLL_INTERVAL_MS: '600000' });

describe('webhook worker wakes', () => {
  test('a delivery written wakes the idle worker at once: sessions ending one after another are each delivered within two seconds', async ({
    e2e: e,
    api,
    desk,
    receiver,
  }) => {
    await putWebhook(api, desk, { url: receiver.url(), events: ['presentation.verified', 'presentation.failed'] });
    for (const end of [verifySession, failSession, verifySession]) {
      const session = await createDeskSession(e);
      const ended = Date.now();
      await end(e, session);
      const [received] = await receiver.waitFor((entry) => entry.event.sessionId === session.id, {
        timeoutMs: 5000,
      });
      expect(received!.at - ended).toBeLessThan(2000);
    }
  });
});
