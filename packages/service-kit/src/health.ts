import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { LevelWithSilent } from 'pino';

/** A named readiness check: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthChecks {
  /** What the pod cannot serve without (PostgreSQL, the schema): any failing makes readiness 503. */
  required: Record<string, ReadinessCheck>;
  /**
   * Partial dependencies (NATS): reported in the body and logged, never failing readiness — a
   * dependency blip must not take every replica out of its Service at once.
   */
  informational?: Record<string, ReadinessCheck>;
  /** How long one check may take before it counts as unavailable. */
  timeoutMs?: number;
  /** While a check keeps failing, how often it is logged again (probes come every few seconds). */
  relogMs?: number;
}

const HealthSchema = Type.Object({ status: Type.String() });
const ReadySchema = Type.Object({
  status: Type.String(),
  checks: Type.Record(Type.String(), Type.String()),
});

/** What a check may answer besides `ok` / `unavailable`: a check that knows why (e.g. `behind`) throws this. */
export class CheckState extends Error {
  constructor(
    readonly state: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `GET /health` (liveness: the process answers; never depends on a dependency) and
 * `GET /health/ready` ("this pod can serve": 503 only when a required check fails within
 * `timeoutMs`; informational checks are reported in `checks` with the answer still 200).
 * Health bodies are the one exception to the error body.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: HealthChecks): void {
  // Probes hit these every few seconds: log them only at warn, unless the service is quieter still.
  const logLevel = quietLogLevel(app.log.level);
  const timeoutMs = checks.timeoutMs ?? 2000;
  const reporter = createCheckReporter(app.log, checks.relogMs ?? 60_000);
  const named = [
    ...Object.entries(checks.required).map(([name, check]) => ({ name, check, required: true })),
    ...Object.entries(checks.informational ?? {}).map(([name, check]) => ({ name, check, required: false })),
  ];
  app.get(
    '/health',
    {
      logLevel,
      schema: {
        summary: 'Liveness: the process answers (never depends on a dependency)',
        tags: ['health'],
        security: [],
        response: { 200: HealthSchema },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/health/ready',
    {
      logLevel,
      schema: {
        summary:
          'Readiness: this pod can serve (503 only when a dependency it cannot work without fails; partial dependencies are reported in checks)',
        tags: ['health'],
        security: [],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(
        named.map(async ({ name, check, required }) => {
          try {
            await withTimeout(check(), timeoutMs);
            reporter.passed(name);
            return { name, required, state: 'ok' };
          } catch (error) {
            const state = error instanceof CheckState ? error.state : 'unavailable';
            reporter.failed(name, state, required, error);
            return { name, required, state };
          }
        }),
      );
      const ready = results.every(({ required, state }) => !required || state === 'ok');
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ok' : 'unavailable',
        checks: Object.fromEntries(results.map(({ name, state }) => [name, state])),
      });
    },
  );
}

/**
 * Logs a failing check when it starts failing and then at most once per `relogMs`, and its
 * recovery once: a probe every few seconds during an outage must not flood the log.
 */
function createCheckReporter(log: FastifyBaseLogger, relogMs: number) {
  const failingSince = new Map<string, { loggedAt: number }>();
  return {
    failed(name: string, state: string, required: boolean, error: unknown) {
      const now = Date.now();
      const failing = failingSince.get(name);
      if (failing && now - failing.loggedAt < relogMs) return;
      failingSince.set(name, { loggedAt: now });
      const effect = required ? 'this pod is not ready' : 'still ready: only what needs it answers 503';
      log.warn({ check: name, state, required, err: error }, `readiness check ${name} ${state}: ${effect}`);
    },
    passed(name: string) {
      if (!failingSince.delete(name)) return;
      log.info({ check: name }, `readiness check ${name} ok again`);
    },
  };
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`timed out after ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `warn`, or the logger's own level when that is quieter (route levels override the logger's). */
export function quietLogLevel(level: string): LevelWithSilent {
  return ['trace', 'debug', 'info'].includes(level) ? 'warn' : (level as LevelWithSilent);
}
