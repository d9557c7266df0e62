import { Counter, Histogram, type Registry } from 'prom-client';
import { BusUnavailableError, type MessageBus, type RequestOptions } from '../bus/message-bus.js';
import { LATENCY_BUCKETS } from './http-metrics.js';

/**
 * `result` of a NATS request: `ok` (an `{ ok: true }` reply), `error` (an `{ ok: false }`
 * reply: the peer refused), or why no answer came (`timeout`, `no-responders`,
 * `disconnected`, `closed`; see BusUnavailableError).
 */
export type NatsRequestResult = 'ok' | 'error' | BusUnavailableError['reason'];

export interface NatsMetrics {
  /** False: `instrumentBus` answers the bus as it is (METRICS_ENABLED=false). */
  enabled: boolean;
  requests: Counter<'subject' | 'result'>;
  duration: Histogram<'subject' | 'result'>;
}

export function createNatsMetrics(registry: Registry, enabled = true): NatsMetrics {
  return {
    enabled,
    requests: new Counter({
      name: 'tessera_nats_requests_total',
      help: 'NATS requests this service sent, by subject and result.',
      labelNames: ['subject', 'result'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'tessera_nats_request_duration_seconds',
      help: 'Time from sending a NATS request to its reply (or giving up), by subject and result.',
      labelNames: ['subject', 'result'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

function resultOf(reply: unknown): NatsRequestResult {
  return (reply as { ok?: unknown } | undefined)?.ok === true ? 'ok' : 'error';
}

/**
 * The bus with its requests counted and timed by subject and result. Subjects are the
 * contract's fixed subjects (they carry no ids), so the label stays bounded. Everything
 * but `request` is passed through untouched.
 */
export function instrumentBus(bus: MessageBus, metrics: NatsMetrics): MessageBus {
  if (!metrics.enabled) return bus;
  const record = (subject: string, result: NatsRequestResult, started: bigint) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.requests.inc({ subject, result });
    metrics.duration.observe({ subject, result }, seconds);
  };
  return {
    get kind() {
      return bus.kind;
    },
    async request(subject: string, payload: unknown, options?: RequestOptions): Promise<unknown> {
      const started = process.hrtime.bigint();
      try {
        const reply = await bus.request(subject, payload, options);
        record(subject, resultOf(reply), started);
        return reply;
      } catch (error) {
        if (error instanceof BusUnavailableError) record(subject, error.reason, started);
        throw error;
      }
    },
    respond: (subject, queue, handler) => bus.respond(subject, queue, handler),
    publish: (subject, payload, options) => bus.publish(subject, payload, options),
    subscribe: (subject, handler, options) => bus.subscribe(subject, handler, options),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
