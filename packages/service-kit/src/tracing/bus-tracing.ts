import { context, propagation, SpanKind, trace, type Attributes, type Context, type Tracer } from '@opentelemetry/api';
import type { EventHandler, MessageBus, MessageContext, RequestHandler, RequestOptions } from '../bus/message-bus.js';
import { endWhenSettled, serviceTracer } from './service-tracer.js';

/** W3C trace context headers (`traceparent`, `tracestate`) as a message carries them. */
export type TraceContextHeaders = Record<string, string>;

function attributesOf(
  subject: string,
  operation: 'request' | 'publish' | 'process',
  requestId: string | undefined,
): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.operation.name': operation,
    ...(requestId ? { 'messaging.message.conversation_id': requestId } : {}),
  };
}

/** The active context's trace headers, to send with a message. */
function injectInto(active: Context): TraceContextHeaders {
  const carrier: TraceContextHeaders = {};
  propagation.inject(active, carrier);
  return carrier;
}

function parentOf(message: MessageContext): Context {
  return message.traceContext ? propagation.extract(context.active(), message.traceContext) : context.active();
}

/**
 * The service's bus with a span per request (CLIENT), per answered request (SERVER),
 * per published event (PRODUCER) and per handled event (CONSUMER), the W3C trace context
 * travelling in the message headers, so one trace runs from the caller's HTTP request
 * through the peer's handling. Recorded: subject, operation, request id; never payloads.
 * The bus itself is returned when the service traces nothing.
 */
export function traceBus(bus: MessageBus, service: string): MessageBus {
  const tracer = serviceTracer(service);
  return tracer ? new TracedBus(bus, tracer) : bus;
}

class TracedBus implements MessageBus {
  constructor(
    private readonly bus: MessageBus,
    private readonly tracer: Tracer,
  ) {}

  get kind() {
    return this.bus.kind;
  }

  request(subject: string, payload: unknown, options: RequestOptions = {}): Promise<unknown> {
    const span = this.tracer.startSpan(`request ${subject}`, {
      kind: SpanKind.CLIENT,
      attributes: attributesOf(subject, 'request', options.requestId),
    });
    const active = trace.setSpan(context.active(), span);
    return endWhenSettled(
      span,
      context.with(active, () => this.bus.request(subject, payload, { ...options, traceContext: injectInto(active) })),
    );
  }

  respond(subject: string, queue: string, handler: RequestHandler): () => void {
    return this.bus.respond(subject, queue, (payload, message) =>
      this.handleWithin(SpanKind.SERVER, subject, message, async () => handler(payload, message)),
    );
  }

  publish(
    subject: string,
    payload: unknown,
    options: { requestId?: string; traceContext?: TraceContextHeaders } = {},
  ): void {
    const span = this.tracer.startSpan(`publish ${subject}`, {
      kind: SpanKind.PRODUCER,
      attributes: attributesOf(subject, 'publish', options.requestId),
    });
    try {
      this.bus.publish(subject, payload, {
        ...options,
        traceContext: injectInto(trace.setSpan(context.active(), span)),
      });
    } finally {
      span.end();
    }
  }

  subscribe(subject: string, handler: EventHandler, options: { queue?: string } = {}): () => void {
    return this.bus.subscribe(
      subject,
      (payload, message) =>
        this.handleWithin(SpanKind.CONSUMER, subject, message, async () => handler(payload, message)),
      options,
    );
  }

  private handleWithin<T>(kind: SpanKind, subject: string, message: MessageContext, run: () => Promise<T>): Promise<T> {
    const parent = parentOf(message);
    const span = this.tracer.startSpan(
      `process ${subject}`,
      { kind, attributes: attributesOf(subject, 'process', message.requestId) },
      parent,
    );
    const active = trace.setSpan(parent, span);
    // A reply goes back with the answering span's context: the trace context travels both ways.
    if (kind === SpanKind.SERVER) message.replyTraceContext = injectInto(active);
    return endWhenSettled(span, context.with(active, run));
  }

  ping(): Promise<void> {
    return this.bus.ping();
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}
