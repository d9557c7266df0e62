/** Context of a message: every request carries an `x-request-id` header. */
export interface MessageContext {
  requestId: string;
  /** W3C trace context (`traceparent`, `tracestate`) the message came with, when traced. */
  traceContext?: Record<string, string>;
  /** Set by a traced responder: the trace context its reply carries back (the answering span). */
  replyTraceContext?: Record<string, string>;
}

export type RequestHandler = (payload: unknown, context: MessageContext) => Promise<unknown>;
export type EventHandler = (payload: unknown, context: MessageContext) => void | Promise<void>;

export interface RequestOptions {
  /** Default 2000 ms (ARCHITECTURE.md, Inter-service contract). */
  timeoutMs?: number;
  requestId?: string;
  /** W3C trace context headers to send with the message (set by the tracing decorator). */
  traceContext?: Record<string, string>;
}

export type PublishOptions = Pick<RequestOptions, 'requestId' | 'traceContext'>;

/**
 * Request/reply and events between services, with NATS semantics. Implemented over a
 * real NATS connection, and in-process for single-process development (no NATS_URL).
 * Payloads are JSON.
 */
export interface MessageBus {
  readonly kind: 'nats' | 'in-process';
  /** Sends a request and resolves with the parsed reply; throws BusUnavailableError on timeout or no responders. */
  request(subject: string, payload: unknown, options?: RequestOptions): Promise<unknown>;
  /** Answers requests on `subject` as one member of queue group `queue`. Returns an unsubscribe function. */
  respond(subject: string, queue: string, handler: RequestHandler): () => void;
  publish(subject: string, payload: unknown, options?: PublishOptions): void;
  /** Receives events; with `queue`, one member of the group gets each event. */
  subscribe(subject: string, handler: EventHandler, options?: { queue?: string }): () => void;
  /** Resolves when the transport is connected and answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
export const REQUEST_ID_HEADER = 'x-request-id';
/** The W3C trace context headers a traced message carries (https://www.w3.org/TR/trace-context/). */
export const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate'] as const;

/** A request got no answer: nobody listens, it timed out, or the connection is closed. */
export class BusUnavailableError extends Error {
  constructor(
    readonly subject: string,
    readonly reason: 'timeout' | 'no-responders' | 'closed' | 'disconnected',
    options?: { cause?: unknown },
  ) {
    super(`no answer on ${subject}: ${reason}`, options);
    this.name = 'BusUnavailableError';
  }
}
