import type { App } from '@tessera/service-kit';
import { HomePage } from '../presenters/pages/home-page.js';
import { loadHome, type LoadHomeDeps } from '../use-cases/load-home.js';
import { answerPage } from './page-errors.js';
import { pageSchema, requireSignIn, sessionOf } from './web-session.js';

export function registerHomeRoutes(app: App, deps: LoadHomeDeps): void {
  app.get('/', { schema: pageSchema(), preHandler: requireSignIn }, async (request, reply) => {
    const session = sessionOf(request);
    const home = await loadHome(deps, { token: session.accessToken, user: session.user });
    return answerPage(request, reply, home, { area: 'home' }, (value, context) => HomePage({ context, home: value }));
  });
}
