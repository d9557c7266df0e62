import { Type } from 'typebox';
import {
  EcosystemTrustPolicySchema,
  TrustListVisibilityBodySchema,
  TrustListVisibilitySchema,
  TrustPolicyBodySchema,
} from '@tessera/contracts';
import { envelope, principalOf, routeSchema, type App, envelopeOf } from '@tessera/service-kit';
import { presentTrustListVisibility, presentTrustPolicy } from '../presenters/trusted-entities.js';
import { getTrustListVisibility, type GetTrustListVisibilityDeps } from '../use-cases/get-trust-list-visibility.js';
import { getTrustPolicy, type GetTrustPolicyDeps } from '../use-cases/get-trust-policy.js';
import { setTrustListVisibility, type SetTrustListVisibilityDeps } from '../use-cases/set-trust-list-visibility.js';
import { setTrustPolicy, type SetTrustPolicyDeps } from '../use-cases/set-trust-policy.js';
import { PathId } from './schemas.js';

export type TrustSettingsRouteDeps = GetTrustPolicyDeps &
  SetTrustPolicyDeps &
  SetTrustListVisibilityDeps &
  GetTrustListVisibilityDeps;

const EcosystemIdParams = Type.Object({ ecosystemId: PathId });
const TAGS = ['trust registry'];

/** The lead's settings of the trust registry: the trust policy and whether the signed list is public. */
export function registerTrustSettingsRoutes(app: App, deps: TrustSettingsRouteDeps): void {
  app.get(
    '/v1/ecosystem/:ecosystemId/trust-policy',
    {
      schema: routeSchema(
        { summary: "The ecosystem's trust policy", tags: TAGS, security: 'bearer', errors: [404, 503] },
        { params: EcosystemIdParams, response: { 200: envelopeOf(EcosystemTrustPolicySchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Trust policy.',
        presentTrustPolicy(
          await getTrustPolicy(deps, { principal: principalOf(request), ecosystemId: request.params.ecosystemId }),
        ),
      ),
  );

  app.put(
    '/v1/ecosystem/:ecosystemId/trust-policy',
    {
      schema: routeSchema(
        {
          summary: "Set whom the ecosystem's intent-based sessions trust",
          description:
            "Lead only. `organisation` (default): the organisation's anchors; `ecosystem`: the ecosystem's trust list only. Does not change the list or its sequence.",
          tags: TAGS,
          security: 'bearer',
          errors: [404, 413, 415, 503],
        },
        {
          params: EcosystemIdParams,
          body: TrustPolicyBodySchema,
          response: { 200: envelopeOf(EcosystemTrustPolicySchema) },
        },
      ),
    },
    async (request) => {
      const ecosystem = await setTrustPolicy(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        body: request.body,
      });
      return envelope(200, 'Trust policy set.', presentTrustPolicy(ecosystem));
    },
  );

  app.get(
    '/v1/ecosystem/:ecosystemId/trust-list/visibility',
    {
      schema: routeSchema(
        {
          summary: 'Whether the signed trust list is public',
          description: 'Lead and members. `public: true`: the signed list is served without a token.',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 503],
        },
        { params: EcosystemIdParams, response: { 200: envelopeOf(TrustListVisibilitySchema) } },
      ),
    },
    async (request) =>
      envelope(
        200,
        'Trust list visibility.',
        presentTrustListVisibility(
          await getTrustListVisibility(deps, {
            principal: principalOf(request),
            ecosystemId: request.params.ecosystemId,
          }),
        ),
      ),
  );

  app.put(
    '/v1/ecosystem/:ecosystemId/trust-list/visibility',
    {
      schema: routeSchema(
        {
          summary: 'Make the signed trust list public or members-only',
          description:
            'Lead only. `public: true` serves the signed list without a token. Does not change the list or its sequence.',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 413, 415, 503],
        },
        {
          params: EcosystemIdParams,
          body: TrustListVisibilityBodySchema,
          response: { 200: envelopeOf(TrustListVisibilitySchema) },
        },
      ),
    },
    async (request) => {
      const ecosystem = await setTrustListVisibility(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        body: request.body,
      });
      return envelope(200, 'Trust list visibility set.', presentTrustListVisibility(ecosystem));
    },
  );
}
