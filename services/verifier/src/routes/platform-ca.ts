import { Type } from 'typebox';
import { routeSchema, type App } from '@tessera/service-kit';

export interface PlatformCaRouteOptions {
  /** The platform CA certificate in force (PEM). */
  certificatePem: string;
  /** Requests per client address and window. */
  rateLimit: { max: number; timeWindow: number };
}

/** `GET /oid4vp/platform-ca.pem`: public, rate-limited, the platform error body (it is not an OAuth endpoint). */
export async function registerPlatformCaRoute(app: App, options: PlatformCaRouteOptions): Promise<void> {
  await app.register(async (scope) => {
    const api = scope as unknown as App;
    api.get(
      '/oid4vp/platform-ca.pem',
      {
        config: { rateLimit: options.rateLimit },
        schema: routeSchema(
          {
            summary: 'The platform CA that issues request-signing certificates (PEM)',
            tags: ['wallet'],
            security: 'public',
            errors: [429],
          },
          { response: { 200: { content: { 'application/x-pem-file': { schema: Type.String() } } } } },
        ),
      },
      async (_request, reply) =>
        reply
          .type('application/x-pem-file')
          .header('cache-control', 'public, max-age=3600')
          .send(options.certificatePem),
    );
  });
}
