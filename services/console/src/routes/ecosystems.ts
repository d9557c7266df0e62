import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { EcosystemsPage } from '../presenters/pages/ecosystems-page.js';
import { answerMemberInvitation, type AnswerMemberInvitationDeps } from '../use-cases/answer-member-invitation.js';
import { formEcosystem, type FormEcosystemDeps } from '../use-cases/form-ecosystem.js';
import { loadEcosystems, type LoadEcosystemsDeps } from '../use-cases/load-ecosystems.js';
import { answerPage } from './page-errors.js';
import { answerForm, formValues, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type EcosystemsRouteDeps = LoadEcosystemsDeps & FormEcosystemDeps & AnswerMemberInvitationDeps;

const Text = (maxLength: number) => Type.String({ maxLength });

/** The ecosystems list, forming one, and answering invitations. */
export function registerEcosystemsRoutes(app: App, deps: EcosystemsRouteDeps): void {
  app.get('/ecosystems', { schema: pageSchema(), preHandler: requireSignIn }, async (request, reply) => {
    const session = sessionOf(request);
    const overview = await loadEcosystems(deps, { token: session.accessToken, user: session.user });
    return answerPage(request, reply, overview, { area: 'ecosystems' }, (value, context) =>
      EcosystemsPage({ context, overview: value }),
    );
  });

  app.post(
    '/ecosystems',
    {
      schema: pageSchema({
        body: Type.Object({
          orgId: Text(200),
          name: Text(200),
          description: Type.Optional(Text(2000)),
          logoUrl: Type.Optional(Text(2048)),
          tags: Type.Optional(Text(2000)),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, name, description, logoUrl, tags } = request.body;
      const tagList = (tags ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
      const result = await formEcosystem(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        body: {
          name,
          description: description ?? '',
          ...(logoUrl ? { logoUrl } : {}),
          ...(tagList.length > 0 ? { tags: tagList } : {}),
        },
      });
      return answerForm(request, reply, result, {
        back: '/ecosystems',
        success: (ecosystem) => `The ecosystem ${ecosystem.name} is formed, led by ${orgId}.`,
        next: (ecosystem) => `/ecosystems/${encodeURIComponent(ecosystem.id)}`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/ecosystems/invitations/answer',
    {
      schema: pageSchema({
        body: Type.Object({
          ecosystemId: Text(100),
          orgId: Text(200),
          status: Type.Union([Type.Literal('accepted'), Type.Literal('rejected')]),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, orgId, status } = request.body;
      const result = await answerMemberInvitation(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        orgId,
        status,
      });
      return answerForm(request, reply, result, {
        back: '/ecosystems',
        success: (invitation) =>
          status === 'accepted'
            ? `${orgId} joined ${invitation.ecosystem?.name ?? 'the ecosystem'}.`
            : `${orgId} declined the invitation to ${invitation.ecosystem?.name ?? 'the ecosystem'}.`,
      });
    },
  );
}
