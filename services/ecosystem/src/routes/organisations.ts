import { Type } from 'typebox';
import { OrganisationSchema, OrganisationUpsertBodySchema } from '@tessera/contracts';
import { badRequest, envelope, principalOf, requireOrgRole, type App } from '@tessera/service-kit';
import { upsertOrganisation } from '../db/organisations.js';
import { normaliseName } from '../domain/names.js';
import { presentOrganisation } from '../present.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PathId } from './schemas.js';

/** `PUT /v1/organisations/{orgId}`: the owner registers or renames their organisation in the directory. */
export function registerOrganisationRoutes(app: App, deps: RouteDeps): void {
  app.put(
    '/v1/organisations/:orgId',
    {
      schema: {
        tags: ['organisations'],
        security: [{ bearer: [] }],
        params: Type.Object({ orgId: PathId }),
        body: OrganisationUpsertBodySchema,
        response: { 200: Envelope(OrganisationSchema), 201: Envelope(OrganisationSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const name = normaliseName({ value: request.body.name, path: '/name', min: 1, max: 200 });
      requireOrgRole(principal, request.params.orgId, ['owner']);
      if (!principal.email) throw badRequest('Your access token carries no e-mail address; the directory records the owner\'s e-mail for invitations.');
      const { row, created } = await upsertOrganisation(deps.db, { id: request.params.orgId, name, ownerUserId: principal.sub, ownerEmail: principal.email });
      const status = created ? 201 : 200;
      return reply.code(status).send(envelope(status, created ? 'Organisation registered.' : 'Organisation updated.', presentOrganisation(row)));
    },
  );
}
