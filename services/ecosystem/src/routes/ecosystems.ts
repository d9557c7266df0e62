import { Type } from 'typebox';
import {
  DashboardSummarySchema,
  EcosystemCreateBodySchema,
  EcosystemListEntrySchema,
  EcosystemSchema,
  OrganisationIdSchema,
} from '@tessera/contracts';
import {
  envelope,
  pageWindow,
  principalOf,
  routeSchema,
  toPage,
  type App,
  envelopeOf,
  pageEnvelopeOf,
  pagingQueryWith,
} from '@tessera/service-kit';
import { presentEcosystem, presentEcosystemListEntry } from '../presenters/ecosystems.js';
import { createEcosystem, type CreateEcosystemDeps } from '../use-cases/create-ecosystem.js';
import { getDashboardSummary, type GetDashboardSummaryDeps } from '../use-cases/get-dashboard-summary.js';
import { getEcosystem, type GetEcosystemDeps } from '../use-cases/get-ecosystem.js';
import { listEcosystems, type ListEcosystemsDeps } from '../use-cases/list-ecosystems.js';
import { PathId } from './schemas.js';

export type EcosystemRouteDeps = CreateEcosystemDeps & ListEcosystemsDeps & GetDashboardSummaryDeps & GetEcosystemDeps;

/** Ecosystem creation by an invited lead, the list of an organisation's ecosystems and the admin dashboard. */
export function registerEcosystemRoutes(app: App, deps: EcosystemRouteDeps): void {
  app.post(
    '/v1/ecosystem/:orgId/create',
    {
      schema: routeSchema(
        {
          summary: 'Create an ecosystem led by an organisation',
          description:
            'The owner of orgId with a pending lead invitation for their e-mail (403 NO_LEAD_INVITATION) creates the ecosystem; orgId must be in the directory (404 ORGANISATION_NOT_FOUND). Names are unique ignoring case (409 ECOSYSTEM_NAME_TAKEN).',
          tags: ['ecosystems'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: Type.Object({ orgId: PathId }),
          body: EcosystemCreateBodySchema,
          response: { 201: envelopeOf(EcosystemSchema) },
        },
      ),
    },
    async (request, reply) => {
      const ecosystem = await createEcosystem(deps, {
        principal: principalOf(request),
        orgId: request.params.orgId,
        body: request.body,
      });
      return reply.code(201).send(envelope(201, 'Ecosystem created.', presentEcosystem(ecosystem)));
    },
  );

  app.get(
    '/v1/ecosystem',
    {
      schema: routeSchema(
        {
          summary: "List the ecosystems of the caller's organisations",
          description:
            'Ecosystems that the organisations where the caller is owner or admin lead or belong to (or only orgId), one entry per ecosystem.',
          tags: ['ecosystems'],
          security: 'bearer',
          errors: [503],
        },
        {
          querystring: pagingQueryWith({ orgId: Type.Optional(OrganisationIdSchema) }),
          response: { 200: pageEnvelopeOf(EcosystemListEntrySchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystems(deps, {
        principal: principalOf(request),
        orgId: request.query.orgId,
        window,
      });
      return envelope(200, 'Ecosystems.', toPage(rows.map(presentEcosystemListEntry), total, window));
    },
  );

  // A static path (`/v1/ecosystem/status`, `/members`, …) wins over `:ecosystemId` in Fastify's router.
  app.get(
    '/v1/ecosystem/:ecosystemId',
    {
      schema: routeSchema(
        {
          summary: 'Read one ecosystem',
          description:
            "The ecosystem as GET /v1/ecosystem lists it (the caller's role, the member count, the lead organisation), for its lead and active members; 404 ECOSYSTEM_NOT_FOUND for anyone else.",
          tags: ['ecosystems'],
          security: 'bearer',
          errors: [404, 503],
        },
        {
          params: Type.Object({ ecosystemId: PathId }),
          response: { 200: envelopeOf(EcosystemListEntrySchema) },
        },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Ecosystem.',
        presentEcosystemListEntry(
          await getEcosystem(deps, { principal: principalOf(request), ecosystemId: request.params.ecosystemId }),
        ),
      ),
  );

  app.get(
    '/v1/ecosystem/dashboard/summary',
    {
      schema: routeSchema(
        {
          summary: 'Count ecosystems, lead invitations and active organisations',
          tags: ['ecosystems'],
          security: 'bearer',
          errors: [503],
        },
        { response: { 200: envelopeOf(DashboardSummarySchema) } },
      ),
    },
    async (request) =>
      envelope(200, 'Dashboard summary.', await getDashboardSummary(deps, { principal: principalOf(request) })),
  );
}
