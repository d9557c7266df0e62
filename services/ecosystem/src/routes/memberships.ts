import { Type } from 'typebox';
import {
  EcosystemMemberSchema,
  EcosystemOrganisationSchema,
  EcosystemRoleSchema,
  ErrorCode,
  InvitationDecisionBodySchema,
  InvitationSchema,
  InvitationStatusSchema,
  MemberInvitationBodySchema,
  OrganisationIdSchema,
  UuidSchema,
} from '@tessera/contracts';
import { envelope, notFound, pageWindow, principalOf, requireOrgRole, toPage, type App } from '@tessera/service-kit';
import { authoriseEcosystem } from '../access.js';
import { inviteMember, listInvitations, viewInvitation, type InvitationFilter } from '../db/invitations.js';
import { listActiveOrganisations, listMembers } from '../db/memberships.js';
import { findOrganisation } from '../db/organisations.js';
import { resolveInvitationPerspective } from '../domain/invitation-perspective.js';
import { presentInvitation, presentMember } from '../present.js';
import { answerInvitation } from '../answer-invitation.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PagedEnvelope, PagedQuery } from './schemas.js';

/** Member invitations, their answers, and who belongs to an ecosystem. */
export function registerMembershipRoutes(app: App, deps: RouteDeps): void {
  app.post(
    '/v1/ecosystem/invite-member',
    { schema: { tags: ['memberships'], security: [{ bearer: [] }], body: MemberInvitationBodySchema, response: { 201: Envelope(InvitationSchema) } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const { orgId, ecosystemId } = request.body;
      await authoriseEcosystem(deps.db, principal, ecosystemId, ['lead']);
      const organisation = await findOrganisation(deps.db, orgId);
      if (!organisation) throw notFound(`Organisation ${orgId} is not in the directory.`, ErrorCode.ORGANISATION_NOT_FOUND);
      const invitation = await inviteMember(deps.db, { ecosystemId, orgId, email: organisation.ownerEmail, ownerUserId: organisation.ownerUserId, createdBy: principal.sub });
      return reply.code(201).send(envelope(201, 'Member invitation sent.', presentInvitation(await viewInvitation(deps.db, invitation))));
    },
  );

  app.get(
    '/v1/ecosystem/invitations',
    {
      schema: {
        tags: ['memberships'],
        security: [{ bearer: [] }],
        querystring: PagedQuery({
          role: Type.Optional(EcosystemRoleSchema),
          orgId: Type.Optional(OrganisationIdSchema),
          ecosystemId: Type.Optional(UuidSchema),
          status: Type.Optional(InvitationStatusSchema),
        }),
        response: { 200: PagedEnvelope(InvitationSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const perspective = resolveInvitationPerspective(request.query);
      let filter: InvitationFilter;
      if (perspective.kind === 'received') {
        requireOrgRole(principal, perspective.orgId, ['owner']);
        filter = perspective;
      } else {
        await authoriseEcosystem(deps.db, principal, perspective.ecosystemId, ['lead']);
        filter = perspective;
      }
      const window = pageWindow(request.query);
      const { rows, total } = await listInvitations(deps.db, filter, request.query.status, window);
      return envelope(200, 'Invitations.', toPage(rows.map(presentInvitation), total, window));
    },
  );

  app.post(
    '/v1/ecosystem/update-invitation-status',
    { schema: { tags: ['memberships'], security: [{ bearer: [] }], body: InvitationDecisionBodySchema, response: { 200: Envelope(InvitationSchema) } } },
    async (request) => {
      const invitation = await answerInvitation(deps.db, principalOf(request), request.body);
      const message = invitation.status === 'accepted' ? 'Invitation accepted: the organisation is an active member.' : 'Invitation rejected.';
      return envelope(200, message, presentInvitation(await viewInvitation(deps.db, invitation)));
    },
  );

  app.get(
    '/v1/ecosystem/members',
    {
      schema: {
        tags: ['memberships'],
        security: [{ bearer: [] }],
        querystring: PagedQuery({ ecosystemId: UuidSchema }),
        response: { 200: PagedEnvelope(EcosystemMemberSchema) },
      },
    },
    async (request) => {
      await authoriseEcosystem(deps.db, principalOf(request), request.query.ecosystemId, ['lead']);
      const window = pageWindow(request.query);
      const { rows, total } = await listMembers(deps.db, request.query.ecosystemId, window);
      return envelope(200, 'Ecosystem members.', toPage(rows.map(presentMember), total, window));
    },
  );

  app.get(
    '/v1/ecosystem/get-ecosystem-orgs',
    {
      schema: {
        tags: ['memberships'],
        security: [{ bearer: [] }],
        querystring: PagedQuery({ ecosystemId: UuidSchema }),
        response: { 200: PagedEnvelope(EcosystemOrganisationSchema) },
      },
    },
    async (request) => {
      await authoriseEcosystem(deps.db, principalOf(request), request.query.ecosystemId, ['lead', 'member']);
      const window = pageWindow(request.query);
      const { rows, total } = await listActiveOrganisations(deps.db, request.query.ecosystemId, window);
      const entries = rows.map((row) => ({ id: row.id, name: row.name, role: row.role, joinedDateTime: row.joinedAt.toISOString() }));
      return envelope(200, 'Organisations of the ecosystem.', toPage(entries, total, window));
    },
  );
}
