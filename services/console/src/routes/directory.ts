import { Type } from 'typebox';
import type { App } from '@tessera/service-kit';
import { DirectoryPage } from '../presenters/pages/directory-page.js';
import { loadDirectoryEntry, type LoadDirectoryEntryDeps } from '../use-cases/load-directory-entry.js';
import { registerOrganisation, type RegisterOrganisationDeps } from '../use-cases/register-organisation.js';
import {
  answerForm,
  formValues,
  OrgParams,
  orgPath,
  pageContext,
  pageSchema,
  requireSignIn,
  sendPage,
  sessionOf,
} from './web-session.js';

/** The organisation's entry in the platform's directory (owner). */
export function registerDirectoryRoutes(app: App, deps: RegisterOrganisationDeps & LoadDirectoryEntryDeps): void {
  app.get(
    '/orgs/:orgId/directory',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const entry = await loadDirectoryEntry(deps, { token: sessionOf(request).accessToken, orgId });
      return sendPage(
        reply,
        DirectoryPage({
          context: pageContext(request, reply, { area: 'organisation', orgId, item: 'directory' }),
          orgId,
          // The form stays usable when the entry cannot be read (the page says why): saving is what matters here.
          ...(entry.ok ? { entry: entry.value ?? null } : { readProblem: entry.problem }),
        }),
      );
    },
  );
  app.post(
    '/orgs/:orgId/directory',
    {
      schema: pageSchema({ params: OrgParams, body: Type.Object({ name: Type.String({ maxLength: 500 }) }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const result = await registerOrganisation(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        name: request.body.name,
      });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, '/directory'),
        success: (organisation) => `${organisation.name} is in the directory as ${organisation.id}.`,
        values: formValues(request.body),
      });
    },
  );
}
