// A client of the session event stream over real HTTP: fetch's body stream read
// by `eventsource-parser` (the parser of the `eventsource` package), so a test
// sees every event, every comment (heartbeats), the status, headers and when
// the server ends the stream. `app.inject` cannot stream, hence a real port.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { expect } from 'vitest';
import type { SessionStateEvent } from '@tessera/contracts';
import type { Harness } from '../support/harness.js';
import { ORG, oid4vpPath } from '../support/management.js';

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** The JSON body of a refusal (non-200); undefined for a stream. */
  body: unknown;
  /** Events so far, in arrival order. */
  events: EventSourceMessage[];
  /** Comment lines so far (heartbeats). */
  comments: string[];
  /** True once the server ended the stream (or the client closed it). */
  readonly ended: boolean;
  /** Resolves when the server ends the stream. */
  done: Promise<void>;
  /** Waits until `count` events arrived, and returns them. */
  waitForEvents(count: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Waits until the server ends the stream. */
  waitForEnd(timeoutMs?: number): Promise<void>;
  /** Closes the connection from the client's side. */
  close(): void;
}

/** Opens `GET …/verifier-presentation-events?id=` on `baseUrl` with `headers` (a bearer token, Last-Event-ID). */
export async function openEventStream(
  baseUrl: string,
  sessionId: string,
  headers: Record<string, string>,
  org = ORG,
): Promise<EventStreamClient> {
  const controller = new AbortController();
  const response = await fetch(
    `${baseUrl}${oid4vpPath(org)}/verifier-presentation-events?id=${encodeURIComponent(sessionId)}`,
    { headers, signal: controller.signal },
  );
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let ended = false;
  if (response.status !== 200 || !response.body) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
      events,
      comments,
      ended: true,
      done: Promise.resolve(),
      waitForEvents: async () => events,
      waitForEnd: async () => {},
      close: () => {},
    };
  }
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Aborted by the client.
    } finally {
      ended = true;
    }
  })();
  const waitUntil = async (condition: () => boolean, what: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; events ${JSON.stringify(events)}, ended ${ended}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    body: undefined,
    events,
    comments,
    get ended() {
      return ended;
    },
    done,
    async waitForEvents(count, timeoutMs = 5000) {
      await waitUntil(() => events.length >= count, `${count} events`, timeoutMs);
      return events.slice(0, count);
    },
    waitForEnd: (timeoutMs = 5000) => waitUntil(() => ended, 'the end of the stream', timeoutMs),
    close: () => controller.abort(),
  };
}

/** The `data` of a state event. */
export function stateOf(event: EventSourceMessage): SessionStateEvent {
  expect(event.event).toBe('state');
  return JSON.parse(event.data) as SessionStateEvent;
}

/** Waits until the harness's hub holds nothing: no followed session, listener, expiry timer or stream slot. */
export async function expectHubEmpty(h: Pick<Harness, 'sessionEventHub'>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const empty = { sessions: 0, listeners: 0, expiryTimers: 0, streamsPerOrg: {} };
  while (Date.now() < deadline) {
    if (JSON.stringify(h.sessionEventHub.stats()) === JSON.stringify(empty)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(h.sessionEventHub.stats()).toEqual(empty);
}
