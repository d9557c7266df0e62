import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { SessionStateEvent } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';

/**
 * The verifier's server-sent session events (`verifier-presentation-events`) as an
 * async sequence of `state` events; heartbeats and other events are skipped. The
 * sequence ends when the verifier ends the stream (after a terminal state) or the
 * caller's signal aborts.
 */
export async function* sessionStateEvents(
  opened: ServiceResult<Response>,
): AsyncGenerator<SessionStateEvent & { rank: number }> {
  if (!opened.ok) return;
  const body = opened.value.body;
  // 204: the client already has the terminal state.
  if (!body || opened.value.status === 204) return;
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { value: message, done } = await reader.read();
      if (done) return;
      if (message.event !== 'state') continue;
      const data = JSON.parse(message.data) as SessionStateEvent;
      yield { ...data, rank: Number(message.id) };
    }
  } catch (error) {
    // An abort (the caller left) or a dropped connection ends the sequence; anything else is a bug.
    if (!(error instanceof Error) || !['AbortError', 'TimeoutError', 'TypeError'].includes(error.name)) throw error;
  } finally {
    // Leaving early (the caller has what it wanted) closes the connection.
    await reader.cancel().catch(() => {});
  }
}
