import type { Span, Tracer } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';

/**
 * The tracer of each service with tracing on, by service name. Several services may
 * run in one process (`npm start`, tests): each has its own provider and resource, so
 * its spans carry its own `service.name`. A service without an entry pays nothing:
 * the HTTP, bus and database instrumentation asks here once, at setup, and installs
 * nothing when the answer is `undefined` (the verifier's checks ask per verification:
 * one map lookup).
 */
const tracers = new Map<string, Tracer>();

export function serviceTracer(service: string): Tracer | undefined {
  return tracers.get(service);
}

/** @internal Called by `startTracing` and its shutdown. */
export function setServiceTracer(service: string, tracer: Tracer | undefined): void {
  if (tracer) tracers.set(service, tracer);
  else tracers.delete(service);
}

/** Ends `span` when `pending` settles, marking it failed on a rejection; resolves as `pending` does. */
export function endWhenSettled<T>(span: Span, pending: Promise<T>): Promise<T> {
  return pending.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      markFailed(span, error);
      span.end();
      throw error;
    },
  );
}

/** An error status naming only the error's class: its message could hold request values. */
export function markFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}
