import { Type } from 'typebox';
import { EcosystemSchema, InvitationSchema, InvitationStatusSchema, LeadInvitationBodySchema } from '@tessera/contracts';
import { envelope, pageWindow, principalOf, requirePlatformAdmin, toPage, type App } from '@tessera/service-kit';
import { createLeadInvitation, listInvitations } from '../db/invitations.js';
import { presentInvitation, presentLeadInvitationAsEcosystem } from '../present.js';
import type { RouteDeps } from './route-deps.js';
import { Envelope, PagedEnvelope, PagedQuery } from './schemas.js';

/** `POST /v1/invitations` and `GET /v1/invitations`: the platform admin's lead invitations. */
export function registerLeadInvitationRoutes(app: App, deps: RouteDeps): void {
  app.post(
    '/v1/invitations',
    {
      schema: {
        tags: ['invitations'],
        security: [{ bearer: [] }],
        body: LeadInvitationBodySchema,
        response: { 201: Envelope(EcosystemSchema) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      requirePlatformAdmin(principal);
      const invitation = await createLeadInvitation(deps.db, { email: request.body.email.trim(), createdBy: principal.sub });
      return reply.code(201).send(envelope(201, 'Lead invitation sent.', presentLeadInvitationAsEcosystem(invitation)));
    },
  );

  app.get(
    '/v1/invitations',
    {
      schema: {
        tags: ['invitations'],
        security: [{ bearer: [] }],
        querystring: PagedQuery({ status: Type.Optional(InvitationStatusSchema) }),
        response: { 200: PagedEnvelope(InvitationSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      requirePlatformAdmin(principal);
      const window = pageWindow(request.query);
      const { rows, total } = await listInvitations(deps.db, { kind: 'lead-sent-by', createdBy: principal.sub }, request.query.status, window);
      return envelope(200, 'Lead invitations.', toPage(rows.map(presentInvitation), total, window));
    },
  );
}
