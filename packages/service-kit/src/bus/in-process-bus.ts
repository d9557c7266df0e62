import { randomUUID } from 'node:crypto';
import {
  BusUnavailableError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type MessageBus,
  type MessageContext,
  type PublishOptions,
  type RequestHandler,
  type RequestOptions,
} from './message-bus.js';

interface Subscriber<H> {
  queue?: string;
  handler: H;
}

/**
 * Routes messages between buses of one Node.js process. The services started by
 * `npm start` without NATS_URL share one hub, so they reach each other as over NATS.
 */
export class InProcessHub {
  readonly responders = new Map<string, Subscriber<RequestHandler>[]>();
  readonly listeners = new Map<string, Subscriber<EventHandler>[]>();
}

const defaultHub = new InProcessHub();

/** JSON round trip: handlers see what they would see over the wire, never shared objects. */
function wireCopy(payload: unknown): unknown {
  return payload === undefined ? undefined : JSON.parse(JSON.stringify(payload));
}

/** Picks one subscriber per queue group (and every subscriber outside a group). */
function deliveryTargets<H>(subscribers: Subscriber<H>[]): H[] {
  const groups = new Map<string, H[]>();
  const targets: H[] = [];
  for (const subscriber of subscribers) {
    if (!subscriber.queue) {
      targets.push(subscriber.handler);
      continue;
    }
    groups.set(subscriber.queue, [...(groups.get(subscriber.queue) ?? []), subscriber.handler]);
  }
  for (const members of groups.values()) targets.push(members[Math.floor(Math.random() * members.length)]!);
  return targets;
}

/** What the handler sees, as NATS headers would carry it: the request id and the trace context, copied. */
function contextFor(options: PublishOptions): MessageContext {
  const context: MessageContext = { requestId: options.requestId ?? randomUUID() };
  if (options.traceContext) context.traceContext = { ...options.traceContext };
  return context;
}

function remove<H>(map: Map<string, Subscriber<H>[]>, subject: string, subscriber: Subscriber<H>): void {
  map.set(
    subject,
    (map.get(subject) ?? []).filter((entry) => entry !== subscriber),
  );
}

export class InProcessBus implements MessageBus {
  readonly kind = 'in-process' as const;
  private closed = false;
  private readonly owned: Array<() => void> = [];

  constructor(private readonly hub: InProcessHub = defaultHub) {}

  async request(subject: string, payload: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closed) throw new BusUnavailableError(subject, 'closed');
    const [handler] = deliveryTargets(this.hub.responders.get(subject) ?? []);
    if (!handler) throw new BusUnavailableError(subject, 'no-responders');
    const context = contextFor(options);
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusUnavailableError(subject, 'timeout')), timeoutMs);
    });
    try {
      const reply = await Promise.race([Promise.resolve().then(() => handler(wireCopy(payload), context)), timeout]);
      return wireCopy(reply);
    } finally {
      clearTimeout(timer);
    }
  }

  respond(subject: string, queue: string, handler: RequestHandler): () => void {
    const subscriber = { queue, handler };
    this.hub.responders.set(subject, [...(this.hub.responders.get(subject) ?? []), subscriber]);
    const unsubscribe = () => remove(this.hub.responders, subject, subscriber);
    this.owned.push(unsubscribe);
    return unsubscribe;
  }

  publish(subject: string, payload: unknown, options: PublishOptions = {}): void {
    if (this.closed) return;
    const context = contextFor(options);
    for (const handler of deliveryTargets(this.hub.listeners.get(subject) ?? [])) {
      // Events are fire-and-forget, as over NATS: a failing listener does not reach the publisher.
      queueMicrotask(
        () =>
          void Promise.resolve()
            .then(() => handler(wireCopy(payload), context))
            .catch(() => {}),
      );
    }
  }

  subscribe(subject: string, handler: EventHandler, options: { queue?: string } = {}): () => void {
    const subscriber = { queue: options.queue, handler };
    this.hub.listeners.set(subject, [...(this.hub.listeners.get(subject) ?? []), subscriber]);
    const unsubscribe = () => remove(this.hub.listeners, subject, subscriber);
    this.owned.push(unsubscribe);
    return unsubscribe;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new BusUnavailableError('ping', 'closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const unsubscribe of this.owned.splice(0)) unsubscribe();
  }
}
