import type { MessageBus, RequestOptions, RequestHandler, EventHandler } from '@tessera/service-kit';

/**
 * Test files share one NATS server and run in parallel, and the contract
 * subjects are fixed: without isolation, another file's responder (the
 * ecosystem service's tests serve `ecosystem.v1.intent.resolve`, and stub
 * `verifier.v1.verification-template.get`) could answer this file's requests.
 * This wrapper puts every subject under a per-harness prefix; traffic still
 * goes through the real NATS server.
 */
export class IsolatedBus implements MessageBus {
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
