import { PageError, sendJson } from '../json-http.js';
import type { PageRoute } from '../page-context.js';

/**
 * `GET /api/presentations/{id}/events`: the verifier's `verifier-presentation-events`
 * stream passed through byte for byte (the current state at once, one `state` event
 * per change, heartbeats; it ends after a terminal state). The browser's
 * `Last-Event-ID` goes upstream so a reconnecting EventSource resumes; closing the
 * page closes the upstream stream.
 */
export const followPresentationEvents: PageRoute = async (context, { request, response, params, browserId }) => {
  if (!context.browsers.ownedBy(params.id!, browserId))
    throw new PageError(404, 'SESSION_NOT_FOUND', 'no such presentation in this browser');
  const abort = new AbortController();
  response.once('close', () => abort.abort());
  const lastEventId = request.headers['last-event-id'];
  let upstream: Response;
  try {
    upstream = await context.verifier.openEvents({
      sessionId: params.id!,
      ...(typeof lastEventId === 'string' ? { lastEventId } : {}),
      signal: abort.signal,
    });
  } catch (error) {
    if (abort.signal.aborted) return;
    throw error;
  }
  if (!upstream.ok || !upstream.body) {
    const text = await upstream.text();
    return sendJson(
      response,
      upstream.status,
      text ? JSON.parse(text) : { statusCode: upstream.status, message: 'the verifier refused the event stream' },
    );
  }
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  response.flushHeaders();
  try {
    for await (const chunk of upstream.body) response.write(chunk);
  } catch {
    // The page went away (the abort above) or the verifier closed the connection: either way the stream is over.
  }
  response.end();
};
