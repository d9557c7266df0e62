import { Type } from 'typebox';
import {
  EcosystemMemberSchema,
  EcosystemOrganisationSchema,
  EcosystemRoleSchema,
  InvitationDecisionBodySchema,
  InvitationSchema,
  InvitationStatusSchema,
  MemberInvitationBodySchema,
  OrganisationIdSchema,
  UuidSchema,
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
import { presentInvitation } from '../presenters/invitations.js';
import { presentEcosystemOrganisation, presentMember } from '../presenters/memberships.js';
import { answerInvitation, type AnswerInvitationDeps } from '../use-cases/answer-invitation.js';
import { inviteMember, type InviteMemberDeps } from '../use-cases/invite-member.js';
import {
  listEcosystemInvitations,
  type ListEcosystemInvitationsDeps,
} from '../use-cases/list-ecosystem-invitations.js';
import { listEcosystemMembers, type ListEcosystemMembersDeps } from '../use-cases/list-ecosystem-members.js';
import {
  listEcosystemOrganisations,
  type ListEcosystemOrganisationsDeps,
} from '../use-cases/list-ecosystem-organisations.js';

export type MembershipRouteDeps = InviteMemberDeps &
  ListEcosystemInvitationsDeps &
  AnswerInvitationDeps &
  ListEcosystemMembersDeps &
  ListEcosystemOrganisationsDeps;

/** Member invitations, their answers, and who belongs to an ecosystem. */
export function registerMembershipRoutes(app: App, deps: MembershipRouteDeps): void {
  app.post(
    '/v1/ecosystem/invite-member',
    {
      schema: routeSchema(
        {
          summary: 'Invite an organisation to the ecosystem',
          description:
            "Lead only. The invitation goes to the organisation owner's e-mail from the directory (404 ORGANISATION_NOT_FOUND); 409 ALREADY_MEMBER or INVITATION_PENDING; a rejected invitation returns to pending.",
          tags: ['memberships'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        { body: MemberInvitationBodySchema, response: { 201: envelopeOf(InvitationSchema) } },
      ),
    },
    async (request, reply) => {
      const invitation = await inviteMember(deps, {
        principal: principalOf(request),
        ecosystemId: request.body.ecosystemId,
        orgId: request.body.orgId,
      });
      return reply.code(201).send(envelope(201, 'Member invitation sent.', presentInvitation(invitation)));
    },
  );

  app.get(
    '/v1/ecosystem/invitations',
    {
      schema: routeSchema(
        {
          summary: 'List member invitations, sent (lead) or received (organisation owner)',
          description:
            'role=Ecosystem Lead with ecosystemId (or the ecosystem id in orgId): what the lead sent; role=Ecosystem Member with orgId: what the organisation received. Without role the parameters given decide.',
          tags: ['memberships'],
          security: 'bearer',
          errors: [404, 503],
        },
        {
          querystring: pagingQueryWith({
            role: Type.Optional(EcosystemRoleSchema),
            orgId: Type.Optional(OrganisationIdSchema),
            ecosystemId: Type.Optional(UuidSchema),
            status: Type.Optional(InvitationStatusSchema),
          }),
          response: { 200: pageEnvelopeOf(InvitationSchema) },
        },
      ),
    },
    async (request) => {
      const { role, orgId, ecosystemId, status } = request.query;
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystemInvitations(deps, {
        principal: principalOf(request),
        role,
        orgId,
        ecosystemId,
        status,
        window,
      });
      return envelope(200, 'Invitations.', toPage(rows.map(presentInvitation), total, window));
    },
  );

  app.post(
    '/v1/ecosystem/update-invitation-status',
    {
      schema: routeSchema(
        {
          summary: 'Accept or reject an invitation of your organisation',
          description:
            'Owner or admin of the invited organisation; orgId names it when several of yours are invited. Only a pending invitation changes (409 INVITATION_NOT_PENDING).',
          tags: ['memberships'],
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        { body: InvitationDecisionBodySchema, response: { 200: envelopeOf(InvitationSchema) } },
      ),
    },
    async (request) => {
      const invitation = await answerInvitation(deps, { principal: principalOf(request), body: request.body });
      const message =
        invitation.invitation.status === 'accepted'
          ? 'Invitation accepted: the organisation is an active member.'
          : 'Invitation rejected.';
      return envelope(200, message, presentInvitation(invitation));
    },
  );

  app.get(
    '/v1/ecosystem/members',
    {
      schema: routeSchema(
        {
          summary: "List the ecosystem's memberships, the lead's included",
          tags: ['memberships'],
          security: 'bearer',
          errors: [404, 503],
        },
        {
          querystring: pagingQueryWith({ ecosystemId: UuidSchema }),
          response: { 200: pageEnvelopeOf(EcosystemMemberSchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystemMembers(deps, {
        principal: principalOf(request),
        ecosystemId: request.query.ecosystemId,
        window,
      });
      return envelope(200, 'Ecosystem members.', toPage(rows.map(presentMember), total, window));
    },
  );

  app.get(
    '/v1/ecosystem/get-ecosystem-orgs',
    {
      schema: routeSchema(
        {
          summary: 'List the organisations that joined the ecosystem',
          tags: ['memberships'],
          security: 'bearer',
          errors: [404, 503],
        },
        {
          querystring: pagingQueryWith({ ecosystemId: UuidSchema }),
          response: { 200: pageEnvelopeOf(EcosystemOrganisationSchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listEcosystemOrganisations(deps, {
        principal: principalOf(request),
        ecosystemId: request.query.ecosystemId,
        window,
      });
      return envelope(
        200,
        'Organisations of the ecosystem.',
        toPage(rows.map(presentEcosystemOrganisation), total, window),
      );
    },
  );
}
