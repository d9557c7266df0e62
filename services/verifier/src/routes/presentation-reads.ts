import { PresentationReadSchema, PresentationReadsQuerySchema } from '@tessera/contracts';
import {
  type App,
  envelope,
  pageEnvelopeOf,
  pageWindow,
  principalOf,
  requireOrgRole,
  routeSchema,
  toPage,
} from '@tessera/service-kit';
import { toPresentationRead } from '../presenters/presentation-read.js';
import { listPresentationReads, type ListPresentationReadsDeps } from '../use-cases/list-presentation-reads.js';
import { MANAGEMENT, OrgParamsSchema } from './common.js';

const tags = ['presentations'];

/**
 * Who read what is for the organisation's owners and admins: the `verifier` role
 * reads presentation data, so it does not also get to audit who else did.
 */
export const PRESENTATION_READ_AUDITORS = ['owner', 'admin'] as const;

export function registerPresentationReadRoutes(app: App, deps: ListPresentationReadsDeps): void {
  app.get(
    '/verifier-presentation-reads',
    {
      // After the management scope's token and role check, before validation (403 first, as there).
      onRequest: async (request) =>
        requireOrgRole(principalOf(request), (request.params as { orgId: string }).orgId, PRESENTATION_READ_AUDITORS),
      schema: routeSchema(
        {
          summary: "Who read a session's presentation data, newest first",
          description:
            'One entry per successful read of `verifier-presentation-response` or per verified answer of `verify-authorization-response`: the access token’s subject, the route and the time. Refused reads (404, 403, 409, 410) hand out nothing and are not listed. Owners and admins only.',
          tags,
          security: MANAGEMENT,
          errors: [403, 404],
        },
        {
          params: OrgParamsSchema,
          querystring: PresentationReadsQuerySchema,
          response: { 200: pageEnvelopeOf(PresentationReadSchema) },
        },
      ),
    },
    async (request) => {
      const { id, pageNumber, pageSize } = request.query;
      const page = pageWindow({ ...(pageNumber ? { pageNumber } : {}), ...(pageSize ? { pageSize } : {}) });
      const { rows, total } = await listPresentationReads(deps, { orgId: request.params.orgId, sessionId: id, page });
      return envelope(200, 'Presentation data reads.', toPage(rows.map(toPresentationRead), total, page));
    },
  );
}
