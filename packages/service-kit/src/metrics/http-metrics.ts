import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Latency buckets (seconds) of HTTP and NATS requests: 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface HttpMetrics {
  /** False: `installHttpMetrics` installs nothing (METRICS_ENABLED=false). */
  enabled: boolean;
  requests: Counter<'route' | 'method' | 'status_class'>;
  duration: Histogram<'route' | 'method' | 'status_class'>;
}

export function createHttpMetrics(registry: Registry, enabled = true): HttpMetrics {
  const labelNames = ['route', 'method', 'status_class'] as const;
  return {
    enabled,
    requests: new Counter({
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status class.',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to sending its answer, by route template, method and status class.',
      labelNames,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

/** The route label of a request no route matched (404s of unknown paths): one value, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods kept as their own label value; anything else is `OTHER`, so a client cannot add series. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const METHOD_INDEX = new Map([...KNOWN_METHODS, 'OTHER'].map((method, index) => [method, index]));

/**
 * Counts and times every answered request by route template (Fastify's
 * `routeOptions.url`, e.g. `/v1/orgs/:orgId/verifiers`: never a path with ids),
 * method and status class. The label children are kept per combination and the hook
 * takes a callback (no promise per request), so a request costs two map lookups and
 * two observations.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: HttpMetrics): void {
  if (!metrics.enabled) return;
  type Child = { counter: Counter.Internal; histogram: Histogram.Internal<'route' | 'method' | 'status_class'> };
  const routes = new Map<string, Map<number, Child>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
    const statusClass = Math.floor(reply.statusCode / 100);
    // One key per method and status class: the index of the method and the class digit.
    const key = METHOD_INDEX.get(method)! * 10 + statusClass;
    let byKey = routes.get(route);
    if (!byKey) routes.set(route, (byKey = new Map()));
    let child = byKey.get(key);
    if (!child) {
      const labels = { route, method, status_class: `${statusClass}xx` };
      child = { counter: metrics.requests.labels(labels), histogram: metrics.duration.labels(labels) };
      byKey.set(key, child);
    }
    child.counter.inc();
    child.histogram.observe(reply.elapsedTime / 1000);
    done();
  });
}
