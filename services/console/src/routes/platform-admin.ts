import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { PlatformAdminPage } from '../presenters/pages/platform-admin-page.js';
import { inviteEcosystemLead, type InviteEcosystemLeadDeps } from '../use-cases/invite-ecosystem-lead.js';
import { loadPlatformAdmin, type LoadPlatformAdminDeps } from '../use-cases/load-platform-admin.js';
import { answerPage } from './page-errors.js';
import { answerForm, formValues, PageQuery, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type PlatformAdminRouteDeps = LoadPlatformAdminDeps & InviteEcosystemLeadDeps;

/** Platform administration: lead invitations and the platform's counts (the ecosystem service refuses anyone else). */
export function registerPlatformAdminRoutes(app: App, deps: PlatformAdminRouteDeps): void {
  app.get(
    '/admin',
    { schema: pageSchema({ querystring: PageQuery }), preHandler: requireSignIn },
    async (request, reply) => {
      const session = sessionOf(request);
      const admin = await loadPlatformAdmin(deps, { token: session.accessToken, pageNumber: request.query.page });
      return answerPage(request, reply, admin, { area: 'admin' }, (value, context) =>
        PlatformAdminPage({ context, admin: value }),
      );
    },
  );
  app.post(
    '/admin/lead-invitations',
    {
      schema: pageSchema({ body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const result = await inviteEcosystemLead(deps, { token: session.accessToken, email: request.body.email });
      return answerForm(request, reply, result, {
        back: '/admin',
        success: `Invitation sent to ${request.body.email.trim()}.`,
        values: formValues(request.body),
      });
    },
  );
}
