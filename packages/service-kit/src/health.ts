import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { LevelWithSilent } from 'pino';

/** A named readiness check: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

const HealthSchema = Type.Object({ status: Type.String() });
const ReadySchema = Type.Object({
  status: Type.String(),
  checks: Type.Record(Type.String(), Type.String()),
});

/**
 * `GET /health` (liveness: the process answers) and `GET /health/ready` (every check
 * passed within `timeoutMs`; 503 otherwise). Health bodies are the one exception to the error body.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: Record<string, ReadinessCheck>, timeoutMs = 2000): void {
  // Probes hit these every few seconds: log them only at warn, unless the service is quieter still.
  const logLevel = quietLogLevel(app.log.level);
  app.get(
    '/health',
    { logLevel, schema: { summary: 'Liveness: the process answers (never depends on a dependency)', tags: ['health'], security: [], response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/health/ready',
    {
      logLevel,
      schema: { summary: 'Readiness: every dependency answered (503 with the failing checks otherwise)', tags: ['health'], security: [], response: { 200: ReadySchema, 503: ReadySchema } },
    },
    async (request, reply) => {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout(check(), timeoutMs);
            return [name, 'ok'] as const;
          } catch (error) {
            request.log.warn({ check: name, err: error }, 'readiness check failed');
            return [name, 'unavailable'] as const;
          }
        }),
      );
      const ready = results.every(([, result]) => result === 'ok');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
    },
  );
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
