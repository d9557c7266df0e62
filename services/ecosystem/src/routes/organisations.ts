import { Type } from 'typebox';
import { OrganisationSchema, OrganisationUpsertBodySchema } from '@tessera/contracts';
import { envelope, principalOf, routeSchema, type App, envelopeOf } from '@tessera/service-kit';
import { presentOrganisation } from '../presenters/organisations.js';
import { getOrganisation, type GetOrganisationDeps } from '../use-cases/get-organisation.js';
import { registerOrganisation, type RegisterOrganisationDeps } from '../use-cases/register-organisation.js';
import { PathId } from './schemas.js';

export type OrganisationRouteDeps = RegisterOrganisationDeps & GetOrganisationDeps;

/** The directory entry of an organisation: its owner writes it, its owners and admins read it. */
export function registerOrganisationRoutes(app: App, deps: OrganisationRouteDeps): void {
  app.get(
    '/v1/organisations/:orgId',
    {
      schema: routeSchema(
        {
          summary: "Read an organisation's directory entry",
          description:
            'Callable by the owners and admins of the organisation (403 otherwise); 404 ORGANISATION_NOT_FOUND when it is not in the directory yet.',
          tags: ['organisations'],
          security: 'bearer',
          errors: [404, 503],
        },
        { params: Type.Object({ orgId: PathId }), response: { 200: envelopeOf(OrganisationSchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Organisation.',
        presentOrganisation(
          await getOrganisation(deps, { principal: principalOf(request), orgId: request.params.orgId }),
        ),
      ),
  );

  app.put(
    '/v1/organisations/:orgId',
    {
      schema: routeSchema(
        {
          summary: 'Register or rename an organisation in the directory',
          description:
            'Callable by the owner of the organisation; the owner id and e-mail come from the token. 201 when new, 200 when updated.',
          tags: ['organisations'],
          security: 'bearer',
          errors: [413, 415, 503],
        },
        {
          params: Type.Object({ orgId: PathId }),
          body: OrganisationUpsertBodySchema,
          response: { 200: envelopeOf(OrganisationSchema), 201: envelopeOf(OrganisationSchema) },
        },
      ),
    },
    async (request, reply) => {
      const { organisation, created } = await registerOrganisation(deps, {
        principal: principalOf(request),
        orgId: request.params.orgId,
        name: request.body.name,
      });
      const status = created ? 201 : 200;
      return reply
        .code(status)
        .send(
          envelope(
            status,
            created ? 'Organisation registered.' : 'Organisation updated.',
            presentOrganisation(organisation),
          ),
        );
    },
  );
}
