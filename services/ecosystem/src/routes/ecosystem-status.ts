import { EcosystemStatusSchema } from '@tessera/contracts';
import { envelope, type App } from '@tessera/service-kit';
import type { RouteDeps } from './route-deps.js';
import { Envelope } from './schemas.js';

/** `GET /v1/ecosystem/status`: whether the feature is on; answered even when it is off. */
export function registerStatusRoute(app: App, deps: RouteDeps): void {
  app.get(
    '/v1/ecosystem/status',
    { schema: { tags: ['ecosystems'], security: [{ bearer: [] }], response: { 200: Envelope(EcosystemStatusSchema) } } },
    async () => envelope(200, deps.enabled ? 'The ecosystem feature is enabled.' : 'The ecosystem feature is disabled.', { enabled: deps.enabled }),
  );
}
