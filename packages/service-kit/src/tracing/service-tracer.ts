import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';

/**
 * The tracer of each service with tracing on, by service name. Several services may
 * run in one process (`npm start`, tests): each has its own provider and resource, so
 * its spans carry its own `service.name`. A service without an entry pays nothing:
 * instrumentation asks here once, at setup, and installs nothing when the answer is
 * `undefined`.
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

/**
 * Runs `run` inside a span of `tracer` (a child of the active one) that ends when it
 * settles; a throw marks the span as an error with the error's type only (messages may
 * carry values). Without a tracer it is `run()` itself.
 */
export async function runInSpan<T>(tracer: Tracer | undefined, name: string, attributes: Attributes, run: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracer) return run(undefined);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** An error status naming only the error's class: its message could hold request values. */
export function markFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}
