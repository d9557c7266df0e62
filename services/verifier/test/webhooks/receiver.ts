// A real HTTP receiver for webhook tests: it records every POST (headers and the
// exact body bytes) and answers as told — a status, or no answer at all (the
// sender's timeout ends the attempt).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from '@tessera/contracts';

export interface ReceivedWebhook {
  /** Milliseconds since the epoch when the request arrived. */
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent. */
  body: string;
  event: WebhookEvent;
  /** What the receiver answered (`hang`: nothing). */
  answered: number | 'hang';
}

/** How the receiver answers one request: a status code, or never (`hang`). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  /** Base URL (http://127.0.0.1:port); `url(path)` for a path of it. */
  origin: string;
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Answers for the next requests, in order; once used up, 200. */
  answerNext(...answers: Answer[]): void;
  /** Drops the answers still queued: from now on, 200. */
  clearAnswers(): void;
  /** Every answer waits this long before it is sent (a slow receiver). */
  delayAnswers(ms: number): void;
  /** Answers wait (requests are still recorded) until the returned function releases them. */
  holdAnswers(): () => void;
  /** The requests for session `sessionId`. */
  of(sessionId: string): ReceivedWebhook[];
  /** Waits until `count` requests matched `predicate` and answers them. */
  waitFor(
    predicate: (received: ReceivedWebhook) => boolean,
    options?: { count?: number; timeoutMs?: number },
  ): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queue: Answer[] = [];
  let delayMs = 0;
  let held: Promise<void> | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answered = queue.shift() ?? 200;
      received.push({
        at: Date.now(),
        path: request.url ?? '',
        headers: request.headers,
        body,
        event: JSON.parse(body) as WebhookEvent,
        answered,
      });
      if (answered === 'hang') return; // the sender's timeout ends it; close() drops the socket
      const answer = () => response.writeHead(answered, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
      const waiting = held;
      setTimeout(() => (waiting ? void waiting.then(answer) : answer()), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path = '/hooks') => `${origin}${path}`,
    received,
    answerNext: (...answers) => void queue.push(...answers),
    delayAnswers: (ms) => void (delayMs = ms),
    holdAnswers: () => {
      let release: () => void = () => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    clearAnswers: () => void queue.splice(0),
    of: (sessionId) => received.filter((entry) => entry.event.sessionId === sessionId),
    async waitFor(predicate, options = {}) {
      const count = options.count ?? 1;
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      while (Date.now() < deadline) {
        const matching = received.filter(predicate);
        if (matching.length >= count) return matching;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(
        `the receiver got ${received.filter(predicate).length} of ${count} expected webhooks; all: ${JSON.stringify(received.map((entry) => entry.event))}`,
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Verifies a received webhook with the `standardwebhooks` library (an
 * implementation independent of the service's) and answers the event it
 * carries; throws when the signature does not verify with `secret`.
 */
export function verifyWithStandardWebhooks(secret: string, received: ReceivedWebhook): unknown {
  const headers = {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(received.body, headers);
}
