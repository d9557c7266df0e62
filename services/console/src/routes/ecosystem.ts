import { Type } from 'typebox';
import { TrustPolicySchema } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import { EcosystemPage } from '../presenters/pages/ecosystem-page.js';
import { createIntent, type CreateIntentDeps } from '../use-cases/create-intent.js';
import { inviteMember, type InviteMemberDeps } from '../use-cases/invite-member.js';
import { loadEcosystem, type LoadEcosystemDeps } from '../use-cases/load-ecosystem.js';
import { setTrustListVisibility, type SetTrustListVisibilityDeps } from '../use-cases/set-trust-list-visibility.js';
import { setTrustPolicy, type SetTrustPolicyDeps } from '../use-cases/set-trust-policy.js';
import { answerPage } from './page-errors.js';
import { answerForm, formValues, pageSchema, requireSignIn, sessionOf } from './web-session.js';

export type EcosystemRouteDeps = LoadEcosystemDeps &
  InviteMemberDeps &
  CreateIntentDeps &
  SetTrustPolicyDeps &
  SetTrustListVisibilityDeps;

export const EcosystemParams = Type.Object({ ecosystemId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ecosystemPath = (ecosystemId: string, rest = '') =>
  `/ecosystems/${encodeURIComponent(ecosystemId)}${rest}`;

/** One ecosystem: its signed list and policy, intents, organisations and invitations. */
export function registerEcosystemRoutes(app: App, deps: EcosystemRouteDeps): void {
  app.get(
    '/ecosystems/:ecosystemId',
    {
      schema: pageSchema({
        params: EcosystemParams,
        querystring: Type.Object({ intents: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const view = await loadEcosystem(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        intentsPage: request.query.intents,
      });
      return answerPage(request, reply, view, { area: 'ecosystems', ecosystemId }, (value, context) =>
        EcosystemPage({ context, view: value }),
      );
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/invitations',
    {
      schema: pageSchema({ params: EcosystemParams, body: Type.Object({ orgId: Type.String({ maxLength: 200 }) }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const result = await inviteMember(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        orgId: request.body.orgId,
      });
      return answerForm(request, reply, result, {
        back: ecosystemPath(ecosystemId),
        success: (invitation) => `${invitation.invitedOrg} is invited; the invitation went to ${invitation.email}.`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/intents',
    {
      schema: pageSchema({
        params: EcosystemParams,
        body: Type.Object({
          name: Type.String({ maxLength: 500 }),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const result = await createIntent(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        name: request.body.name,
        description: request.body.description ?? '',
      });
      return answerForm(request, reply, result, {
        back: ecosystemPath(ecosystemId),
        success: (intent) => `The intent ${intent.name} is added.`,
        next: (intent) => `/intents/${encodeURIComponent(intent.id)}`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-policy',
    {
      schema: pageSchema({ params: EcosystemParams, body: Type.Object({ policy: TrustPolicySchema }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const result = await setTrustPolicy(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        policy: request.body.policy,
      });
      return answerForm(request, reply, result, {
        back: ecosystemPath(ecosystemId),
        success: (saved) =>
          saved.policy === 'ecosystem'
            ? "Intent-based sessions now trust the ecosystem's list only."
            : "Intent-based sessions now trust each organisation's own anchors.",
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-list/visibility',
    {
      schema: pageSchema({
        params: EcosystemParams,
        body: Type.Object({ public: Type.Union([Type.Literal('true'), Type.Literal('false')]) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const result = await setTrustListVisibility(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        visible: request.body.public === 'true',
      });
      return answerForm(request, reply, result, {
        back: ecosystemPath(ecosystemId),
        success: (saved) =>
          saved.public ? 'The signed list is now public.' : 'The signed list is now for the lead and members only.',
      });
    },
  );
}
