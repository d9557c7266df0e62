import { randomUUID } from 'node:crypto';
import {
  connect,
  credsAuthenticator,
  headers as natsHeaders,
  NoRespondersError,
  RequestError,
  TimeoutError,
  type Msg,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import {
  BusUnavailableError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  REQUEST_ID_HEADER,
  TRACE_CONTEXT_HEADERS,
  type EventHandler,
  type MessageContext,
  type PublishOptions,
  type MessageBus,
  type RequestHandler,
  type RequestOptions,
} from './message-bus.js';

export interface ConnectNatsOptions {
  url: string;
  /** Connection name shown by the NATS server (the service name). */
  name: string;
  logger: Logger;
  user?: string;
  pass?: string;
  token?: string;
  /** NKEY/JWT credentials (the content of a .creds file). */
  creds?: Uint8Array;
  /**
   * Requires TLS (a plain server is refused), verified against `caFile` when given, else the
   * system roots; the server's host name is checked.
   */
  tls?: { caFile?: string };
}

/** The headers of an outgoing message: its request id and, when traced, its trace context. */
function headersFor(options: PublishOptions) {
  const h = natsHeaders();
  h.set(REQUEST_ID_HEADER, options.requestId ?? randomUUID());
  if (options.traceContext) for (const [name, value] of Object.entries(options.traceContext)) h.set(name, value);
  return h;
}

/** What a received message tells its handler: request id and, when it carries one, trace context. */
function contextOf(msg: Msg): MessageContext {
  const context: MessageContext = { requestId: msg.headers?.get(REQUEST_ID_HEADER) || randomUUID() };
  if (msg.headers?.has('traceparent')) {
    const traceContext: Record<string, string> = {};
    for (const name of TRACE_CONTEXT_HEADERS) if (msg.headers.has(name)) traceContext[name] = msg.headers.get(name);
    context.traceContext = traceContext;
  }
  return context;
}

function parse(msg: Msg): unknown {
  try {
    return msg.data.length === 0 ? undefined : msg.json();
  } catch {
    return undefined;
  }
}

/** A MessageBus over a NATS connection that reconnects forever in the background. */
export class NatsBus implements MessageBus {
  readonly kind = 'nats' as const;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {}

  static async connect(options: ConnectNatsOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: options.url.split(','),
      name: options.name,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      // A user's replies arrive under its own inbox prefix, so the server can let each
      // service subscribe to its own replies only (infra/nats/nats-server.conf).
      ...(options.user ? { user: options.user, pass: options.pass, inboxPrefix: `_INBOX.${options.user}` } : {}),
      ...(options.token ? { token: options.token } : {}),
      ...(options.creds ? { authenticator: credsAuthenticator(options.creds) } : {}),
      ...(options.tls ? { tls: options.tls.caFile ? { caFile: options.tls.caFile } : {} } : {}),
    });
    const bus = new NatsBus(nc, options.logger);
    void bus.watchStatus();
    return bus;
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect')
        this.logger.warn({ nats: status.type }, `NATS ${status.type}`);
    }
  }

  async request(subject: string, payload: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.nc.isClosed()) throw new BusUnavailableError(subject, 'closed');
    const h = headersFor(options);
    try {
      const msg = await this.nc.request(subject, JSON.stringify(payload), {
        timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        headers: h,
      });
      return parse(msg);
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders())
        throw new BusUnavailableError(subject, 'no-responders', { cause: error });
      if (error instanceof NoRespondersError) throw new BusUnavailableError(subject, 'no-responders', { cause: error });
      if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
        throw new BusUnavailableError(subject, 'timeout', { cause: error });
      }
      // While reconnecting, requests fail rather than wait: callers answer 503 at once.
      throw new BusUnavailableError(subject, 'disconnected', { cause: error });
    }
  }

  respond(subject: string, queue: string, handler: RequestHandler): () => void {
    const sub = this.nc.subscribe(subject, {
      queue,
      callback: (error, msg) => {
        if (error) {
          this.logger.error({ err: error, subject }, 'NATS subscription failed');
          return;
        }
        const context = contextOf(msg);
        void handler(parse(msg), context).then(
          (reply) =>
            msg.respond(
              JSON.stringify(reply),
              context.replyTraceContext
                ? { headers: headersFor({ requestId: context.requestId, traceContext: context.replyTraceContext }) }
                : undefined,
            ),
          (handlerError: unknown) =>
            this.logger.error({ err: handlerError, subject, requestId: context.requestId }, 'NATS responder failed'),
        );
      },
    });
    return () => sub.unsubscribe();
  }

  publish(subject: string, payload: unknown, options: PublishOptions = {}): void {
    const h = headersFor(options);
    try {
      this.nc.publish(subject, JSON.stringify(payload), { headers: h });
    } catch (error) {
      this.logger.warn({ err: error, subject }, 'NATS publish failed');
    }
  }

  subscribe(subject: string, handler: EventHandler, options: { queue?: string } = {}): () => void {
    const sub = this.nc.subscribe(subject, {
      ...(options.queue ? { queue: options.queue } : {}),
      callback: (error, msg) => {
        if (error) return;
        const context = contextOf(msg);
        void Promise.resolve()
          .then(() => handler(parse(msg), context))
          .catch((handlerError: unknown) =>
            this.logger.error({ err: handlerError, subject }, 'NATS event handler failed'),
          );
      },
    });
    return () => sub.unsubscribe();
  }

  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new BusUnavailableError('ping', 'closed');
    await this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain().catch(() => this.nc.close());
  }
}
