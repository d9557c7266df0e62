import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { TrustedEntityRoleSchema, TrustedEntityStatusSchema, type TrustedEntityFilter } from '@tessera/contracts';
import { splitPemCertificates, type App } from '@tessera/service-kit';
import type { Clock } from '@tessera/service-kit';
import { parseCredentialTypeLines } from '../domain/credential-type-lines.js';
import { TrustRegistryPage } from '../presenters/pages/trust-registry-page.js';
import { TrustedEntityPage } from '../presenters/pages/trusted-entity-page.js';
import { addEntityCertificates, type AddEntityCertificatesDeps } from '../use-cases/add-entity-certificates.js';
import { changeEntityStatus, type ChangeEntityStatusDeps } from '../use-cases/change-entity-status.js';
import { loadTrustRegistry, type LoadTrustRegistryDeps } from '../use-cases/load-trust-registry.js';
import { loadTrustedEntity, type LoadTrustedEntityDeps } from '../use-cases/load-trusted-entity.js';
import { registerTrustedEntity, type RegisterTrustedEntityDeps } from '../use-cases/register-trusted-entity.js';
import { retireEntityCertificate, type RetireEntityCertificateDeps } from '../use-cases/retire-entity-certificate.js';
import { updateTrustedEntity, type UpdateTrustedEntityDeps } from '../use-cases/update-trusted-entity.js';
import { EcosystemParams } from './ecosystem.js';
import { answerPage } from './page-errors.js';
import { answerForm, formValues, pageSchema, problemFlash, requireSignIn, sessionOf } from './web-session.js';

export type TrustRegistryRouteDeps = LoadTrustRegistryDeps &
  LoadTrustedEntityDeps &
  RegisterTrustedEntityDeps &
  UpdateTrustedEntityDeps &
  AddEntityCertificatesDeps &
  RetireEntityCertificateDeps &
  ChangeEntityStatusDeps & { clock: Clock };

const EntityParams = Type.Object({
  ecosystemId: Type.String({ minLength: 1, maxLength: 100 }),
  entityId: Type.String({ minLength: 1, maxLength: 100 }),
});
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const registryPath = (ecosystemId: string, rest = '') =>
  `/ecosystems/${encodeURIComponent(ecosystemId)}/trust-registry${rest}`;

/** The ecosystem's trust registry: entities, their certificates, statuses and history. */
export function registerTrustRegistryRoutes(app: App, deps: TrustRegistryRouteDeps): void {
  app.get(
    '/ecosystems/:ecosystemId/trust-registry',
    {
      schema: pageSchema({
        params: EcosystemParams,
        querystring: Type.Object({
          role: Type.Optional(Type.Union([TrustedEntityRoleSchema, Type.Literal('')])),
          status: Type.Optional(Type.Union([TrustedEntityStatusSchema, Type.Literal('')])),
          vct: Text(500),
          doctype: Text(500),
          page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const { role, status, vct, doctype, page } = request.query;
      const filter: TrustedEntityFilter = {
        ...(role ? { role } : {}),
        ...(status ? { status } : {}),
        ...(vct ? { vct } : {}),
        ...(doctype ? { doctype } : {}),
      };
      const view = await loadTrustRegistry(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        filter,
        pageNumber: page,
      });
      return answerPage(request, reply, view, { area: 'ecosystems', ecosystemId }, (value, context) =>
        TrustRegistryPage({
          context,
          view: value,
        }),
      );
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-registry',
    {
      schema: pageSchema({
        params: EcosystemParams,
        body: Type.Object({
          name: Type.String({ maxLength: 500 }),
          role: TrustedEntityRoleSchema,
          allowedCredentialTypes: Text(20000),
          certificates: Type.String({ maxLength: 400_000 }),
          orgId: Text(200),
          informationUri: Text(2048),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId } = request.params;
      const body = request.body;
      const back = registryPath(ecosystemId, '#register');
      const types = parseCredentialTypeLines(body.allowedCredentialTypes);
      if (!types.ok) return refuse(request, reply, back, types.details, formValues(body));
      const result = await registerTrustedEntity(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        body: {
          name: body.name,
          role: body.role,
          ...(types.types.length > 0 ? { allowedCredentialTypes: types.types } : {}),
          certificates: certificatesOf(body.certificates),
          ...(body.orgId?.trim() ? { orgId: body.orgId.trim() } : {}),
          ...(body.informationUri?.trim() ? { informationUri: body.informationUri.trim() } : {}),
        },
      });
      return answerForm(request, reply, result, {
        back,
        success: (entity) => `${entity.name} is registered as a trusted ${entity.role}.`,
        next: (entity) => registryPath(ecosystemId, `/${encodeURIComponent(entity.id)}`),
        values: formValues(body),
      });
    },
  );

  app.get(
    '/ecosystems/:ecosystemId/trust-registry/:entityId',
    {
      schema: pageSchema({
        params: EntityParams,
        querystring: Type.Object({ history: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, entityId } = request.params;
      const view = await loadTrustedEntity(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        entityId,
        historyPage: request.query.history,
      });
      return answerPage(request, reply, view, { area: 'ecosystems', ecosystemId }, (value, context) =>
        TrustedEntityPage({
          context,
          view: value,
          now: deps.clock(),
        }),
      );
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-registry/:entityId',
    {
      schema: pageSchema({
        params: EntityParams,
        body: Type.Object({
          name: Type.String({ maxLength: 500 }),
          informationUri: Text(2048),
          allowedCredentialTypes: Text(20000),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, entityId } = request.params;
      const body = request.body;
      const back = registryPath(ecosystemId, `/${encodeURIComponent(entityId)}`);
      const types = parseCredentialTypeLines(body.allowedCredentialTypes);
      if (!types.ok) return refuse(request, reply, back, types.details, formValues(body));
      const result = await updateTrustedEntity(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        entityId,
        body: {
          name: body.name,
          informationUri: body.informationUri?.trim() ? body.informationUri.trim() : null,
          allowedCredentialTypes: types.types,
        },
      });
      return answerForm(request, reply, result, {
        back,
        success: (entity) => `${entity.name} is saved.`,
        values: formValues(body),
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-registry/:entityId/certificates',
    {
      schema: pageSchema({
        params: EntityParams,
        body: Type.Object({ certificates: Type.String({ maxLength: 400_000 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, entityId } = request.params;
      const result = await addEntityCertificates(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        entityId,
        pems: certificatesOf(request.body.certificates).map((certificate) => certificate.pem),
      });
      return answerForm(request, reply, result, {
        back: registryPath(ecosystemId, `/${encodeURIComponent(entityId)}`),
        success: (entity) => `${entity.name} now has ${entity.certificates.length} current certificate(s).`,
        values: formValues(request.body),
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-registry/:entityId/certificates/:certificateId/retire',
    {
      schema: pageSchema({
        params: Type.Object({
          ...EntityParams.properties,
          certificateId: Type.String({ minLength: 1, maxLength: 100 }),
        }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, entityId, certificateId } = request.params;
      const result = await retireEntityCertificate(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        entityId,
        certificateId,
      });
      return answerForm(request, reply, result, {
        back: registryPath(ecosystemId, `/${encodeURIComponent(entityId)}`),
        success: 'The certificate is retired.',
      });
    },
  );

  app.post(
    '/ecosystems/:ecosystemId/trust-registry/:entityId/status',
    {
      schema: pageSchema({
        params: EntityParams,
        body: Type.Object({ status: TrustedEntityStatusSchema, reason: Type.String({ maxLength: 2000 }) }),
      }),
      preHandler: requireSignIn,
    },
    async (request, reply) => {
      const { ecosystemId, entityId } = request.params;
      const result = await changeEntityStatus(deps, {
        token: sessionOf(request).accessToken,
        ecosystemId,
        entityId,
        body: { status: request.body.status, reason: request.body.reason },
      });
      return answerForm(request, reply, result, {
        back: registryPath(ecosystemId, `/${encodeURIComponent(entityId)}`),
        success: (entity) => `${entity.name} is ${entity.status}.`,
        values: formValues(request.body),
      });
    },
  );
}

/**
 * The PEM blocks of a text area, one upload each; text that holds no block goes as it
 * is, so the service names the problem at `/certificates/0/pem`.
 */
function certificatesOf(text: string): Array<{ pem: string }> {
  const blocks = splitPemCertificates(text);
  return (blocks.length > 0 ? blocks : [text]).map((pem) => ({ pem }));
}

function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  back: string,
  details: Array<{ path: string; message: string }>,
  values: Record<string, string>,
) {
  sessionOf(request).setFlash(
    problemFlash({ code: 'VALIDATION_FAILED', message: 'The form has problems: see each field.', details }, values),
  );
  return reply.redirect(back, 303);
}
