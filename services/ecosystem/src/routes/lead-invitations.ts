import { Type } from 'typebox';
import {
  EcosystemSchema,
  InvitationSchema,
  InvitationStatusSchema,
  LeadInvitationBodySchema,
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
import { presentInvitation, presentLeadInvitationAsEcosystem } from '../presenters/invitations.js';
import { inviteLead, type InviteLeadDeps } from '../use-cases/invite-lead.js';
import { listLeadInvitations, type ListLeadInvitationsDeps } from '../use-cases/list-lead-invitations.js';

export type LeadInvitationRouteDeps = InviteLeadDeps & ListLeadInvitationsDeps;

/** `POST /v1/invitations` and `GET /v1/invitations`: the platform admin's lead invitations. */
export function registerLeadInvitationRoutes(app: App, deps: LeadInvitationRouteDeps): void {
  app.post(
    '/v1/invitations',
    {
      schema: routeSchema(
        {
          summary: 'Invite a future ecosystem lead by e-mail',
          description:
            'Platform admin only. One pending lead invitation per e-mail address (409 INVITATION_PENDING). Answered in the Ecosystem shape with the invitation id.',
          tags: ['invitations'],
          security: 'bearer',
          errors: [409, 413, 415, 503],
        },
        { body: LeadInvitationBodySchema, response: { 201: envelopeOf(EcosystemSchema) } },
      ),
    },
    async (request, reply) => {
      const invitation = await inviteLead(deps, { principal: principalOf(request), email: request.body.email });
      return reply.code(201).send(envelope(201, 'Lead invitation sent.', presentLeadInvitationAsEcosystem(invitation)));
    },
  );

  app.get(
    '/v1/invitations',
    {
      schema: routeSchema(
        {
          summary: 'List the lead invitations the calling admin sent',
          tags: ['invitations'],
          security: 'bearer',
          errors: [503],
        },
        {
          querystring: pagingQueryWith({ status: Type.Optional(InvitationStatusSchema) }),
          response: { 200: pageEnvelopeOf(InvitationSchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listLeadInvitations(deps, {
        principal: principalOf(request),
        status: request.query.status,
        window,
      });
      return envelope(200, 'Lead invitations.', toPage(rows.map(presentInvitation), total, window));
    },
  );
}
