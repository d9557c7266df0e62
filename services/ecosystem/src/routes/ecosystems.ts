import { Type } from 'typebox';
import { DashboardSummarySchema, EcosystemCreateBodySchema, EcosystemListEntrySchema, EcosystemSchema, ErrorCode, OrganisationIdSchema } from '@tessera/contracts';
import { envelope, notFound, orgsWithRole, pageWindow, principalOf, requireOrgRole, requirePlatformAdmin, toPage, type App } from '@tessera/service-kit';
import { MANAGING_ROLES } from '../access.js';
import { countDashboard, createEcosystemFromInvitation, listEcosystemsOfOrgs, noLeadInvitation } from '../db/ecosystems.js';
import { findPendingLeadInvitation } from '../db/invitations.js';
import { findOrganisation } from '../db/organisations.js';
import { normaliseName } from '../domain/names.js';
import { presentEcosystem } from '../present.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PagedEnvelope, PagedQuery, PathId } from './schemas.js';

/** Ecosystem creation by an invited lead, the list of an organisation's ecosystems and the admin dashboard. */
export function registerEcosystemRoutes(app: App, deps: RouteDeps): void {
  app.post(
    '/v1/ecosystem/:orgId/create',
    {
      schema: {
        tags: ['ecosystems'],
        security: [{ bearer: [] }],
        params: Type.Object({ orgId: PathId }),
        body: EcosystemCreateBodySchema,
        response: { 201: Envelope(EcosystemSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { orgId } = request.params;
      // Body rules first, like the schema: bad input is 400 whoever sends it.
      const name = normaliseName({ value: request.body.name, path: '/name', min: 2, max: 50 });
      requireOrgRole(principal, orgId, ['owner']);
      if (!principal.email || !(await findPendingLeadInvitation(deps.db, principal.email))) throw noLeadInvitation();
      if (!(await findOrganisation(deps.db, orgId))) {
        throw notFound(`Organisation ${orgId} is not in the directory: register it with PUT /v1/organisations/${orgId} first.`, ErrorCode.ORGANISATION_NOT_FOUND);
      }
      const ecosystem = await createEcosystemFromInvitation(deps.db, {
        body: { ...request.body, name, description: request.body.description.trim() },
        orgId,
        userId: principal.sub,
        userEmail: principal.email,
      });
      return reply.code(201).send(envelope(201, 'Ecosystem created.', presentEcosystem(ecosystem)));
    },
  );

  app.get(
    '/v1/ecosystem',
    {
      schema: {
        tags: ['ecosystems'],
        security: [{ bearer: [] }],
        querystring: PagedQuery({ orgId: Type.Optional(OrganisationIdSchema) }),
        response: { 200: PagedEnvelope(EcosystemListEntrySchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { orgId } = request.query;
      if (orgId) requireOrgRole(principal, orgId, MANAGING_ROLES);
      const orgIds = orgId ? [orgId] : orgsWithRole(principal, MANAGING_ROLES);
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystemsOfOrgs(deps.db, orgIds, window);
      const entries = rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        memberCount: row.memberCount,
        role: row.role,
        leadOrg: { id: row.leadOrgId, name: row.leadOrgName },
        createDateTime: row.createdAt.toISOString(),
      }));
      return envelope(200, 'Ecosystems.', toPage(entries, total, window));
    },
  );

  app.get(
    '/v1/ecosystem/dashboard/summary',
    { schema: { tags: ['ecosystems'], security: [{ bearer: [] }], response: { 200: Envelope(DashboardSummarySchema) } } },
    async (request) => {
      requirePlatformAdmin(principalOf(request));
      return envelope(200, 'Dashboard summary.', await countDashboard(deps.db));
    },
  );
}
