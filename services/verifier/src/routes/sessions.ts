import { ErrorCode, PresentationSessionSchema, SessionListQuerySchema } from '@tessera/contracts';
import { envelope, isUuid, notFound, pageWindow, toPage, type App } from '@tessera/service-kit';
import { Type } from 'typebox';
import { Page } from '@tessera/contracts';
import type { VerifierContext } from '../context.js';
import { expireSessions, findSession, listSessions } from '../db/sessions.js';
import { SESSION_EXPIRED_MESSAGE } from '../domain/session-state.js';
import { publishSessionUpdated } from '../sessions/session-events.js';
import { toSessionRecord } from '../sessions/session-view.js';
import { envelopeOf, errorResponses, OrgParamsSchema } from './common.js';

const tags = ['presentations'];

export function registerSessionRoutes(app: App, ctx: VerifierContext): void {
  app.get(
    '/verifier-presentation',
    {
      schema: {
        tags,
        summary: 'Read presentation sessions: one by id, or a page of matching ones, newest first',
        params: OrgParamsSchema,
        querystring: SessionListQuerySchema,
        response: { 200: envelopeOf(Type.Union([PresentationSessionSchema, Page(PresentationSessionSchema)])), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const { id, pageNumber, pageSize, ...filters } = request.query;
      const now = ctx.now();
      // Persist expiry first, so `state` filters and the events agree with what readers see.
      for (const changed of await expireSessions(ctx.db, { orgId, ...(id && isUuid(id) ? { id } : {}), now, message: SESSION_EXPIRED_MESSAGE })) {
        publishSessionUpdated(ctx.bus, { id: changed.id, orgId: changed.orgId, state: 'Error' }, request.id);
      }
      if (id !== undefined) {
        const row = isUuid(id) ? await findSession(ctx.db, { orgId, id }) : undefined;
        if (!row) throw notFound('The organisation has no presentation session with this id.', ErrorCode.NOT_FOUND);
        return envelope(200, 'Presentation session.', toSessionRecord(row, now));
      }
      const window = pageWindow({ ...(pageNumber ? { pageNumber } : {}), ...(pageSize ? { pageSize } : {}) });
      const { rows, total } = await listSessions(ctx.db, { orgId, filters, limit: window.pageSize, offset: window.offset });
      return envelope(200, 'Presentation sessions.', toPage(rows.map((row) => toSessionRecord(row, now)), total, window));
    },
  );
}
