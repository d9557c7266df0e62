import { Type } from 'typebox';
import { SessionEventsQuerySchema, SessionStateEventSchema } from '@tessera/contracts';
import { routeSchema, startEventStream, type App } from '@tessera/service-kit';
import { parseLastEventId } from '../domain/session-event-ids.js';
import type { SessionStateEventOut } from '../domain/session-state-events.js';
import { followSessionEvents, type FollowSessionEventsDeps } from '../use-cases/follow-session-events.js';
import { MANAGEMENT, OrgParamsSchema, setRetryAfter } from './common.js';

const tags = ['presentations'];

export interface SessionEventRoutesDeps extends FollowSessionEventsDeps {
  stream: { heartbeatMs: number; idleTimeoutMs: number; maxDurationMs: number };
}

const DESCRIPTION = [
  'Server-sent events (text/event-stream) of one session, with the authorization of `GET verifier-presentation?id=`.',
  'On connect the current state at once, then one `state` event per change: `id:` is the state’s rank (1 RequestCreated, 2 RequestUriRetrieved, 3 ResponseVerified or Error), `data:` is `{ id, state, error?, changedAt }`.',
  'Comment lines (`: heartbeat`) keep the connection alive. A reconnecting client sends `Last-Event-ID` and gets only a newer state.',
  'The stream ends after a terminal state (ResponseVerified, Error — expiry included); a client that already has it gets 204, which tells an EventSource to stop reconnecting.',
  'It also ends after SSE_IDLE_TIMEOUT_MS without an event, after SSE_MAX_STREAM_MS, and when the service shuts down. Refusals (401, 403, 404, 429 with Retry-After) come as JSON before any stream.',
].join(' ');

export function registerPresentationSessionEventRoutes(app: App, deps: SessionEventRoutesDeps): void {
  app.get(
    '/verifier-presentation-events',
    {
      onError: setRetryAfter,
      schema: routeSchema(
        {
          summary: 'Follow a presentation session: its state changes as server-sent events',
          description: DESCRIPTION,
          tags,
          security: MANAGEMENT,
          errors: [404, 429],
        },
        {
          params: OrgParamsSchema,
          querystring: SessionEventsQuerySchema,
          headers: Type.Object({
            'last-event-id': Type.Optional(
              Type.String({ maxLength: 200, description: 'The id of the last event received (reconnection).' }),
            ),
          }),
          response: {
            200: {
              description:
                'An event stream: `event: state`, `id: 1|2|3`, `data:` the JSON below; `: heartbeat` comments between events.',
              content: { 'text/event-stream': { schema: SessionStateEventSchema } },
            },
            204: {
              description: 'The client already has the session’s terminal state (Last-Event-ID): nothing will follow.',
              type: 'null',
            },
          },
        },
      ),
    },
    async (request, reply) => {
      const lastEventId = parseLastEventId(request.headers['last-event-id']);
      const followed = await followSessionEvents(deps, {
        orgId: request.params.orgId,
        id: request.query.id,
        ...(lastEventId !== undefined ? { lastEventId } : {}),
        requestId: request.id,
      });
      if (followed.kind === 'up-to-date') return reply.code(204).send();
      const { follower } = followed;
      const stream = startEventStream(request, reply, deps.stream);
      // However the stream ends (terminal state, client gone, timeouts, shutdown), the follower's subscription and slot go with it.
      void stream.ended.then(() => follower.stop());
      follower.start((event: SessionStateEventOut) => {
        stream.send({ id: String(event.eventId), event: 'state', data: JSON.stringify(event.data) });
        if (event.terminal) stream.end('complete');
      });
      return reply;
    },
  );
}
