import type { App } from '@tessera/service-kit';
import { HomePage } from '../presenters/pages/home-page.js';
import { loadHome, type LoadHomeDeps } from '../use-cases/load-home.js';
import { sendProblemPage } from './page-errors.js';
import { pageContext, pageSchema, requireSignIn, sendPage, sessionOf } from './web-session.js';

export function registerHomeRoutes(app: App, deps: LoadHomeDeps): void {
  app.get('/', { schema: pageSchema(), preHandler: requireSignIn }, async (request, reply) => {
    const session = sessionOf(request);
    const home = await loadHome(deps, { token: session.accessToken, user: session.user });
    if (!home.ok) return sendProblemPage(request, reply, home.problem);
    return sendPage(reply, HomePage({ context: pageContext(request, reply, { area: 'home' }), home: home.value }));
  });
}
