import { randomBytes } from 'node:crypto';
import { InProcessBus, InProcessHub } from '../bus/in-process-bus.js';
import { NatsBus } from '../bus/nats-bus.js';
import type { EventHandler, MessageBus, RequestHandler, RequestOptions } from '../bus/message-bus.js';
import { createLogger, type Logger } from '../logger.js';
import { testBackends } from './available-servers.js';

export { InProcessHub };

/**
 * A bus for a test: a NATS connection when a server is there, else an in-process
 * bus on `hub` (pass the same hub to buses that must reach each other).
 */
export async function connectTestBus(
  name: string,
  hub: InProcessHub = new InProcessHub(),
  logger?: Logger,
): Promise<MessageBus> {
  const url = testBackends().nats.url;
  if (!url) return new InProcessBus(hub);
  return NatsBus.connect({ url, name, logger: logger ?? createLogger({ name, level: 'silent' }) });
}

/**
 * Test files share one NATS server and run in parallel, while the contract's
 * subjects are fixed: without isolation another file's responder could answer
 * this file's requests. A namespace puts every subject under its own prefix;
 * traffic still goes through the real server (or the in-process hub).
 */
export interface TestBusNamespace {
  /** A connection of service `name` inside this namespace. */
  connect(name: string): Promise<MessageBus>;
}

export function createTestBusNamespace(hub: InProcessHub = new InProcessHub()): TestBusNamespace {
  const prefix = `t${randomBytes(6).toString('hex')}`;
  return { connect: async (name) => new NamespacedBus(await connectTestBus(name, hub), prefix) };
}

/** A bus whose subjects all live under `prefix` (see `createTestBusNamespace`). */
export class NamespacedBus implements MessageBus {
  constructor(
    private readonly inner: MessageBus,
    private readonly prefix: string,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  private subject(subject: string): string {
    return `${this.prefix}.${subject}`;
  }

  request(subject: string, payload: unknown, options?: RequestOptions): Promise<unknown> {
    return this.inner.request(this.subject(subject), payload, options);
  }

  respond(subject: string, queue: string, handler: RequestHandler): () => void {
    return this.inner.respond(this.subject(subject), queue, handler);
  }

  publish(subject: string, payload: unknown, options?: { requestId?: string }): void {
    this.inner.publish(this.subject(subject), payload, options);
  }

  subscribe(subject: string, handler: EventHandler, options?: { queue?: string }): () => void {
    return this.inner.subscribe(this.subject(subject), handler, options);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
