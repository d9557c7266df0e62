import type { App } from '@tessera/service-kit';
import { OverviewPage } from '../presenters/pages/overview-page.js';
import { loadOverview, type LoadOverviewDeps } from '../use-cases/load-overview.js';
import { answerPage } from './page-errors.js';
import { OrgParams, pageSchema, requireSignIn, sessionOf } from './web-session.js';

/** The organisation's overview: its last 24 hours in four charts, each with its table. */
export function registerOverviewRoutes(app: App, deps: LoadOverviewDeps): void {
  app.get(
    '/orgs/:orgId',
    { schema: pageSchema({ params: OrgParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId } = request.params;
      const overview = await loadOverview(deps, { token: sessionOf(request).accessToken, orgId });
      return answerPage(request, reply, overview, { area: 'organisation', orgId, item: 'overview' }, (value, context) =>
        OverviewPage({
          context,
          orgId,
          overview: value,
        }),
      );
    },
  );
}
