import { EcosystemStatusSchema } from '@tessera/contracts';
import { envelope, routeSchema, type App, envelopeOf } from '@tessera/service-kit';

export interface StatusRouteDeps {
  /** ECOSYSTEM_ENABLED. */
  enabled: boolean;
}

/** `GET /v1/ecosystem/status`: whether the feature is on; answered even when it is off (it reads only the configuration). */
export function registerStatusRoute(app: App, deps: StatusRouteDeps): void {
  app.get(
    '/v1/ecosystem/status',
    {
      schema: routeSchema(
        { summary: 'Whether the ecosystem feature is enabled', tags: ['ecosystems'], security: 'bearer' },
        { response: { 200: envelopeOf(EcosystemStatusSchema) } },
      ),
    },
    async () =>
      envelope(200, deps.enabled ? 'The ecosystem feature is enabled.' : 'The ecosystem feature is disabled.', {
        enabled: deps.enabled,
      }),
  );
}
