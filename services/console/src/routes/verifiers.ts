import { Type } from 'typebox';
import { OverAskingPolicySchema, type ClientMetadata } from '@tessera/contracts';
import type { App } from '@tessera/service-kit';
import { can } from '../domain/signed-in-user.js';
import { VerifierPage } from '../presenters/pages/verifier-page.js';
import { VerifiersPage } from '../presenters/pages/verifiers-page.js';
import { createVerifier, type CreateVerifierDeps } from '../use-cases/create-verifier.js';
import {
  deleteRegistrationCertificate,
  type DeleteRegistrationCertificateDeps,
} from '../use-cases/delete-registration-certificate.js';
import { deleteVerifier, type DeleteVerifierDeps } from '../use-cases/delete-verifier.js';
import { deleteWebhook, type DeleteWebhookDeps } from '../use-cases/delete-webhook.js';
import { loadVerifier, type LoadVerifierDeps } from '../use-cases/load-verifier.js';
import { loadVerifiers, type LoadVerifiersDeps } from '../use-cases/load-verifiers.js';
import {
  redeliverWebhookDelivery,
  type RedeliverWebhookDeliveryDeps,
} from '../use-cases/redeliver-webhook-delivery.js';
import { rotateWebhookSecret, type RotateWebhookSecretDeps } from '../use-cases/rotate-webhook-secret.js';
import {
  saveRegistrationCertificate,
  type SaveRegistrationCertificateDeps,
} from '../use-cases/save-registration-certificate.js';
import { saveVerifierSettings, type SaveVerifierSettingsDeps } from '../use-cases/save-verifier-settings.js';
import { saveWebhook, type SaveWebhookDeps } from '../use-cases/save-webhook.js';
import { updateVerifier, type UpdateVerifierDeps } from '../use-cases/update-verifier.js';
import { answerPage } from './page-errors.js';
import { registerOrgListPage } from './org-list-page.js';
import {
  answerForm,
  formValues,
  listOf,
  OrgParams,
  orgPath,
  pageSchema,
  requireSignIn,
  sessionOf,
} from './web-session.js';

export type VerifierRouteDeps = LoadVerifiersDeps &
  LoadVerifierDeps &
  CreateVerifierDeps &
  UpdateVerifierDeps &
  DeleteVerifierDeps &
  SaveVerifierSettingsDeps &
  SaveRegistrationCertificateDeps &
  DeleteRegistrationCertificateDeps &
  SaveWebhookDeps &
  DeleteWebhookDeps &
  RotateWebhookSecretDeps &
  RedeliverWebhookDeliveryDeps;

const VerifierParams = Type.Object({
  ...OrgParams.properties,
  verifierId: Type.String({ minLength: 1, maxLength: 200 }),
});
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const verifierPath = (orgId: string, verifierId: string, rest = '') =>
  orgPath(orgId, `/verifiers/${encodeURIComponent(verifierId)}${rest}`);

/** The display data wallets show; an empty field is left out. */
function clientMetadataOf(body: { clientName?: string; logoUri?: string }): ClientMetadata | undefined {
  const name = body.clientName?.trim();
  const logo = body.logoUri?.trim();
  if (!name && !logo) return undefined;
  return { ...(name ? { client_name: name } : {}), ...(logo ? { logo_uri: logo } : {}) };
}

/** Verifiers, their display data and their webhooks. */
export function registerVerifierRoutes(app: App, deps: VerifierRouteDeps): void {
  registerOrgListPage(
    app,
    'verifiers',
    (input) => loadVerifiers(deps, input),
    ({ context, orgId, value }) => VerifiersPage({ context, orgId, verifiers: value }),
  );

  app.post(
    '/orgs/:orgId/verifiers',
    {
      schema: pageSchema({
        params: OrgParams,
        body: Type.Object({ verifierId: Type.String({ maxLength: 500 }), clientName: Text(500), logoUri: Text(4096) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const clientMetadata = clientMetadataOf(request.body);
      const result = await createVerifier(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        body: { verifierId: request.body.verifierId.trim(), ...(clientMetadata ? { clientMetadata } : {}) },
      });
      return answerForm(request, reply, result, {
        back: orgPath(orgId, '/verifiers'),
        success: (verifier) => `The verifier ${verifier.verifierId} is added.`,
        next: (verifier) => verifierPath(orgId, verifier.verifierId),
        values: formValues(request.body),
      });
    },
  );

  app.get(
    '/orgs/:orgId/verifiers/:verifierId',
    {
      schema: pageSchema({
        params: VerifierParams,
        querystring: Type.Object({ deliveries: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const session = sessionOf(request);
      const view = await loadVerifier(deps, {
        token: session.accessToken,
        orgId,
        verifierId,
        deliveriesPage: request.query.deliveries,
      });
      return answerPage(request, reply, view, { area: 'organisation', orgId, item: 'verifiers' }, (value, context) =>
        VerifierPage({
          context,
          orgId,
          view: value,
          manageIdentity: can.manageIdentity(session.user.orgRoles[orgId] ?? []),
        }),
      );
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId',
    {
      schema: pageSchema({ params: VerifierParams, body: Type.Object({ clientName: Text(500), logoUri: Text(4096) }) }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const clientMetadata = clientMetadataOf(request.body);
      const result = await updateVerifier(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
        body: { clientMetadata: clientMetadata ?? null },
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId),
        success: 'The display data is saved.',
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/settings',
    {
      schema: pageSchema({
        params: VerifierParams,
        // An unchecked box is absent from a form: strict HAIP is on only when it is sent.
        body: Type.Object({ overAskingPolicy: OverAskingPolicySchema, strictHaip: Type.Optional(Type.Literal('on')) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await saveVerifierSettings(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
        overAskingPolicy: request.body.overAskingPolicy,
        strictHaip: request.body.strictHaip === 'on',
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#settings'),
        success: 'The settings are saved; they apply to sessions created from now on.',
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/registration-certificate',
    {
      schema: pageSchema({
        params: VerifierParams,
        body: Type.Object({ registrationCertificate: Type.String({ maxLength: 70000 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await saveRegistrationCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
        registrationCertificate: request.body.registrationCertificate.trim(),
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#registration'),
        success: (certificate) =>
          `The registration certificate of ${certificate.relyingParty.name ?? certificate.relyingParty.identifier} is kept; requests carry it from now on.`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/registration-certificate/delete',
    { schema: pageSchema({ params: VerifierParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await deleteRegistrationCertificate(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#registration'),
        success: 'The registration certificate is removed: requests no longer carry it.',
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/delete',
    { schema: pageSchema({ params: VerifierParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await deleteVerifier(deps, { token: sessionOf(request).accessToken, orgId, verifierId });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId),
        success: `The verifier ${verifierId} is deleted.`,
        next: orgPath(orgId, '/verifiers'),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/webhook',
    {
      schema: pageSchema({
        params: VerifierParams,
        body: Type.Object({
          url: Type.String({ maxLength: 4096 }),
          events: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await saveWebhook(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
        // Validated by the verifier, which names a bad event at /events.
        body: { url: request.body.url.trim(), events: listOf(request.body.events) as never },
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#webhook'),
        // The verifier shows a secret once, when the webhook is created; a change of an existing one keeps it unshown.
        success: (webhook) =>
          'secret' in webhook
            ? 'The webhook is saved. Give its receiver the signing secret below.'
            : 'The webhook is saved; its signing secret is unchanged.',
        values: formValues(request.body),
        secret: (webhook) => ('secret' in webhook ? { label: 'Signing secret', value: webhook.secret } : undefined),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/webhook/rotate-secret',
    { schema: pageSchema({ params: VerifierParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await rotateWebhookSecret(deps, { token: sessionOf(request).accessToken, orgId, verifierId });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#webhook'),
        success: 'The webhook has a new signing secret; the old one no longer signs.',
        secret: (webhook) => ({ label: 'New signing secret', value: webhook.secret }),
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/webhook/delete',
    { schema: pageSchema({ params: VerifierParams }), preHandler: requireSignIn },
    async (request, reply) => {
      const { orgId, verifierId } = request.params;
      const result = await deleteWebhook(deps, { token: sessionOf(request).accessToken, orgId, verifierId });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#webhook'),
        success: 'The webhook and its deliveries are removed.',
      });
    },
  );

  app.post(
    '/orgs/:orgId/verifiers/:verifierId/webhook/deliveries/:deliveryId/redeliver',
    {
      schema: pageSchema({
        params: Type.Object({
          ...VerifierParams.properties,
          deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { orgId, verifierId, deliveryId } = request.params;
      const result = await redeliverWebhookDelivery(deps, {
        token: sessionOf(request).accessToken,
        orgId,
        verifierId,
        deliveryId,
      });
      return answerForm(request, reply, result, {
        back: verifierPath(orgId, verifierId, '#deliveries'),
        success: (delivery) => `The ${delivery.event.type} event is being delivered again.`,
      });
    },
  );
}
