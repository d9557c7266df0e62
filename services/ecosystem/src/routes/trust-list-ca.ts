import { Type } from 'typebox';
import { routeSchema, type App } from '@tessera/service-kit';
import { TRUST_LIST_CORS_HEADERS } from './trust-list.js';

export interface TrustListCaRouteDeps {
  /** The trust-list CA certificate in force (PEM). */
  certificatePem: string;
}

/**
 * `GET /v1/trust-list-ca.pem`: the CA every signed list chains to, for outside verifiers
 * to pin. Public, answered whether or not the ecosystem feature is on (it is platform
 * configuration, not ecosystem data).
 */
export function registerTrustListCaRoute(app: App, deps: TrustListCaRouteDeps): void {
  app.get(
    '/v1/trust-list-ca.pem',
    {
      schema: routeSchema(
        {
          summary: 'The trust-list CA certificate (PEM) every signed trust list chains to',
          tags: ['trust registry'],
          security: 'public',
          errors: [429, 503],
        },
        {
          response: {
            200: {
              description: 'the CA certificate',
              content: { 'application/x-pem-file': { schema: Type.String() } },
            },
          },
        },
      ),
    },
    async (_request, reply) =>
      reply
        .headers(TRUST_LIST_CORS_HEADERS)
        .header('cache-control', 'public, max-age=3600')
        .type('application/x-pem-file')
        .send(deps.certificatePem),
  );
}
