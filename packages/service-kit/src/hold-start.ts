import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@tessera/contracts';
import { createApp } from './create-app.js';
import { CheckState } from './health.js';
import type { Logger } from './logger.js';

/** What a held start waits for: `ready`, or the readiness check's name and state and a line saying why not. */
export type HoldCheckResult = { ready: true } | { ready: false; check: string; state: string; message: string };

export interface HoldStartOptions {
  service: string;
  logger: Logger;
  /** Where the service will listen: the holding answers are given there meanwhile. */
  listenOn: { HOST: string; PORT: number };
  /** The database the holding readiness pings (`checks.database`). */
  database: { ping(): Promise<void> };
  /** Read at once, then every `recheckMs` until it answers ready; a throw counts as "not known yet" and is retried. */
  check: () => Promise<HoldCheckResult>;
  /** The message of the 503 every request but health gets meanwhile. */
  notReadyMessage: string;
  /** How often `check` runs again while not ready. */
  recheckMs?: number;
  /** While not ready, how often the reason is logged again. */
  relogMs?: number;
}

/**
 * Holds a start until `check` answers ready: returns at once when it does, and otherwise
 * nothing of the service is built meanwhile — the service's address answers `/health` 200
 * (alive: no restart), `/health/ready` 503 with `checks.database` and the check's own state
 * (e.g. `checks.schema: "behind"`), and everything else 503 `DEPENDENCY_UNAVAILABLE`; the
 * reason is logged as an error at once and again every `relogMs`, and `check` runs again
 * every `recheckMs`. Once ready, the holding listener closes and the start goes on, no
 * restart needed.
 */
export async function holdStartUntil(options: HoldStartOptions): Promise<void> {
  let result = await options.check();
  if (result.ready) return;
  options.logger.error({ check: result.check, state: result.state }, result.message);
  const holding = await listenWhileHolding(options, () => result);
  const relogMs = options.relogMs ?? 60_000;
  let loggedAt = Date.now();
  try {
    while (!result.ready) {
      await sleep(options.recheckMs ?? 2000);
      try {
        result = await options.check();
      } catch (error) {
        // The database away for a moment: keep waiting, readiness reports it.
        options.logger.warn({ err: error }, `${options.service}: start condition not read`);
      }
      if (!result.ready && Date.now() - loggedAt >= relogMs) {
        options.logger.error({ check: result.check, state: result.state }, result.message);
        loggedAt = Date.now();
      }
    }
  } finally {
    await holding.close();
  }
}

/** The holding answers on the service's address (see `holdStartUntil`). */
async function listenWhileHolding(options: HoldStartOptions, current: () => HoldCheckResult) {
  const first = current();
  const checkName = first.ready ? 'start' : first.check;
  const app = await createApp({
    name: options.service,
    title: `Tessera ${options.service} service (holding its start)`,
    description: 'Answers health only until the service can start.',
    logger: options.logger,
    bodyLimit: 1024,
    readiness: {
      database: () => options.database.ping(),
      [checkName]: async () => {
        const result = current();
        if (!result.ready) throw new CheckState(result.state, result.message);
      },
    },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/health' || request.url.startsWith('/health/') || request.url.startsWith('/health?')) return;
    return reply.code(503).header('retry-after', '5').send({
      statusCode: 503,
      error: 'Service Unavailable',
      code: ErrorCode.DEPENDENCY_UNAVAILABLE,
      message: options.notReadyMessage,
    });
  });
  await app.listen({ host: options.listenOn.HOST, port: options.listenOn.PORT });
  return app;
}
