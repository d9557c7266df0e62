import type { IncomingMessage } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { serviceTracer } from './service-tracer.js';

interface RequestSpan {
  span: Span;
  context: Context;
}

/**
 * Where a request's span waits between its hooks: a field of the raw request, which
 * lives exactly as long as the request (a WeakMap entry per request costs the garbage
 * collector an ephemeron each). Cleared, not deleted, so the object keeps its shape.
 */
const REQUEST_SPAN = Symbol('tessera.requestSpan');
type TracedMessage = IncomingMessage & { [REQUEST_SPAN]?: RequestSpan | undefined };

const headerGetter = {
  keys: (headers: IncomingMessage['headers']) => Object.keys(headers),
  get: (headers: IncomingMessage['headers'], key: string) => headers[key],
};

/**
 * One SERVER span per HTTP request, a child of the caller's `traceparent` when it sent
 * one, and the trace id in every log line of the request. Installed explicitly rather
 * than through an auto-instrumentation (README, Traces): one span with the route
 * template, no span per hook, nothing patched at require time, and nothing installed at
 * all when the service traces nothing.
 *
 * The span starts where Fastify creates the request's child logger (before its first
 * line, "incoming request"), so that logger is bound to `traceId`; it becomes the active
 * context for the hooks and the handler (again in preHandler: body parsing runs from
 * stream events, outside it) and ends when the response is sent or the request aborted.
 * Recorded: method, route template, status code, request id. Never the URL (a query can
 * carry a token), headers or bodies.
 */
export function installRequestTracing(app: FastifyInstance, service: string): void {
  const tracer = serviceTracer(service);
  if (!tracer) return;
  app.setChildLoggerFactory((logger, bindings, options, raw: TracedMessage) => {
    // The W3C propagator reads nothing without a traceparent: most requests skip it.
    const parent =
      raw.headers.traceparent === undefined
        ? context.active()
        : propagation.extract(context.active(), raw.headers, headerGetter);
    const span = tracer.startSpan(
      raw.method ?? 'HTTP',
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': raw.method ?? '' } },
      parent,
    );
    raw[REQUEST_SPAN] = { span, context: trace.setSpan(parent, span) };
    return logger.child({ ...bindings, traceId: span.spanContext().traceId }, options);
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const entry = (request.raw as TracedMessage)[REQUEST_SPAN];
    if (!entry) return done();
    const route = request.routeOptions.url;
    if (route) {
      entry.span.updateName(`${request.method} ${route}`);
      entry.span.setAttribute('http.route', route);
    }
    context.with(entry.context, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const entry = (request.raw as TracedMessage)[REQUEST_SPAN];
    if (!entry) return done();
    context.with(entry.context, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const entry = (request.raw as TracedMessage)[REQUEST_SPAN];
    if (entry) {
      // request.id by now: a caller's x-request-id only when it was safe to keep (create-app).
      entry.span.setAttributes({ 'http.response.status_code': reply.statusCode, 'tessera.request_id': request.id });
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
      (request.raw as TracedMessage)[REQUEST_SPAN] = undefined;
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const entry = (request.raw as TracedMessage)[REQUEST_SPAN];
    if (entry) {
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted' });
      entry.span.end();
      (request.raw as TracedMessage)[REQUEST_SPAN] = undefined;
    }
    done();
  });
}
