import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Server-sent events (WHATWG HTML §9.2) on a Fastify route. The reply is hijacked
// after the route decided to stream — authorization, validation and any refusal
// have been answered with the platform error body before — so the kit's onRequest
// hooks (x-request-id, security headers) have already set their headers, which the
// stream sends with its own. A hijacked reply skips Fastify's onResponse logging, so
// the stream logs its own end (reason, duration, events) with the request's logger.

/** One event: `data` is split into `data:` lines; `id` and `event` must be one line. */
export interface ServerSentEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Why a stream ended. */
export type EventStreamEndReason = 'complete' | 'client-closed' | 'idle-timeout' | 'max-duration' | 'server-closing';

export interface EventStreamOptions {
  /** A comment line every this many ms keeps proxies and clients from timing the connection out. */
  heartbeatMs: number;
  /** The stream ends after this long without an event (heartbeats do not count). */
  idleTimeoutMs?: number;
  /** The stream ends this long after it opened, whatever it sent. */
  maxDurationMs?: number;
}

export interface EventStream {
  /** Writes one event (ignored once the stream has ended). */
  send(event: ServerSentEvent): void;
  /** Ends the stream (idempotent: the first reason counts). */
  end(reason: EventStreamEndReason): void;
  readonly closed: boolean;
  /** Resolves with the reason once the stream has ended, whoever ended it. */
  readonly ended: Promise<EventStreamEndReason>;
}

const OPEN_STREAMS = Symbol('tessera.openEventStreams');

/**
 * Lets the app end its open event streams when it closes: `createApp` calls this, so
 * `app.close()` (graceful shutdown) ends every stream before the server waits for its
 * connections, instead of waiting for clients that never leave.
 */
export function installEventStreams(app: FastifyInstance): void {
  const open = new Set<EventStream>();
  app.decorate(OPEN_STREAMS, open);
  app.addHook('preClose', async () => {
    for (const stream of [...open]) stream.end('server-closing');
  });
}

function openStreamsOf(request: FastifyRequest): Set<EventStream> | undefined {
  return (request.server as unknown as Record<symbol, Set<EventStream> | undefined>)[OPEN_STREAMS];
}

/** The bytes of one event; a line break in `id` or `event` would forge fields, so it is a bug here. */
export function formatServerSentEvent(event: ServerSentEvent): string {
  const lines: string[] = [];
  for (const [field, value] of [
    ['id', event.id],
    ['event', event.event],
  ] as const) {
    if (value === undefined) continue;
    if (/[\r\n\0]/.test(value)) throw new Error(`an event ${field} must be one line`);
    lines.push(`${field}: ${value}`);
  }
  for (const line of event.data.split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/**
 * Hijacks the reply and opens an event stream: 200 `text/event-stream` with the
 * headers the request's hooks set, never cached or transformed by a proxy, then
 * events as `send` writes them and a heartbeat comment every `heartbeatMs`. The
 * stream ends when the client leaves, the idle or maximum duration passes, the app
 * closes, or the caller ends it; every timer is cleared then and `ended` resolves.
 */
export function startEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamOptions,
): EventStream {
  const res = reply.raw;
  const openedAt = Date.now();
  let events = 0;
  let closed = false;
  let resolveEnded: (reason: EventStreamEndReason) => void = () => {};
  const ended = new Promise<EventStreamEndReason>((resolve) => (resolveEnded = resolve));
  const open = openStreamsOf(request);

  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[name] = value as string | number | string[];
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    // nginx-style proxies buffer responses unless told not to; a buffered stream is no stream.
    'x-accel-buffering': 'no',
    // The connection goes with the stream: a kept-alive socket would hold a closing server
    // open until its keep-alive timeout, and a client reconnects on a new one anyway.
    connection: 'close',
  });
  res.flushHeaders();

  const write = (chunk: string) => {
    if (!closed && !res.destroyed && !res.writableEnded) res.write(chunk);
  };
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs);
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    if (options.idleTimeoutMs === undefined) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => stream.end('idle-timeout'), options.idleTimeoutMs);
  };
  const maxDuration =
    options.maxDurationMs === undefined
      ? undefined
      : setTimeout(() => stream.end('max-duration'), options.maxDurationMs);

  const finish = (reason: EventStreamEndReason) => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (idle) clearTimeout(idle);
    if (maxDuration) clearTimeout(maxDuration);
    open?.delete(stream);
    if (!res.writableEnded) res.end();
    request.log.info({ reason, events, responseTime: Date.now() - openedAt }, 'event stream closed');
    resolveEnded(reason);
  };

  const stream: EventStream = {
    send(event) {
      if (closed) return;
      write(formatServerSentEvent(event));
      events += 1;
      armIdle();
    },
    end: finish,
    get closed() {
      return closed;
    },
    ended,
  };
  // 'close' comes after our own end too; by then `finish` has run and this is a no-op.
  res.on('close', () => finish('client-closed'));
  open?.add(stream);
  armIdle();
  return stream;
}
