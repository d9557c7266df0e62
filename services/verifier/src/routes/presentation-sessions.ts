import { Type } from 'typebox';
import { Page, PresentationSessionSchema, SessionListQuerySchema } from '@tessera/contracts';
import { type App, envelope, envelopeOf, pageWindow, routeSchema, toPage } from '@tessera/service-kit';
import { toPresentationSession } from '../presenters/presentation-session.js';
import {
  readPresentationSessions,
  type ReadPresentationSessionsDeps,
} from '../use-cases/read-presentation-sessions.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['presentations'];

export function registerPresentationSessionRoutes(app: App, deps: ReadPresentationSessionsDeps): void {
  app.get(
    '/verifier-presentation',
    {
      schema: routeSchema(
        {
          summary: 'Read presentation sessions: one by id, or a page of matching ones, newest first',
          tags,
          security: MANAGEMENT,
          errors: [404],
        },
        {
          params: OrgParamsSchema,
          querystring: SessionListQuerySchema,
          response: { 200: envelopeOf(Type.Union([PresentationSessionSchema, Page(PresentationSessionSchema)])) },
        },
      ),
    },
    async (request) => {
      const { id, pageNumber, pageSize, ...filters } = request.query;
      const page = pageWindow({ ...(pageNumber ? { pageNumber } : {}), ...(pageSize ? { pageSize } : {}) });
      const read = await readPresentationSessions(deps, {
        orgId: request.params.orgId,
        ...(id !== undefined ? { id } : {}),
        filters,
        page,
        requestId: request.id,
      });
      if (read.kind === 'one')
        return envelope(
          200,
          'Presentation session.',
          toPresentationSession(read.session, read.readAt, read.lifecycles.get(read.session.id)),
        );
      return envelope(
        200,
        'Presentation sessions.',
        toPage(
          read.rows.map((row) => toPresentationSession(row, read.readAt, read.lifecycles.get(row.id))),
          read.total,
          page,
        ),
      );
    },
  );
}
