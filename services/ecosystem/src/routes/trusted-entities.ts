import { Type } from 'typebox';
import {
  TrustedEntityCertificatesBodySchema,
  TrustedEntityCreateBodySchema,
  TrustedEntityFilterSchema,
  TrustedEntityHistoryEntrySchema,
  TrustedEntityPatchBodySchema,
  TrustedEntitySchema,
  TrustedEntityStatusBodySchema,
} from '@tessera/contracts';
import {
  envelope,
  pageWindow,
  principalOf,
  routeSchema,
  toPage,
  type App,
  envelopeOf,
  pageEnvelopeOf,
  pagingQueryWith,
} from '@tessera/service-kit';
import { presentHistoryEntry, presentTrustedEntity } from '../presenters/trusted-entities.js';
import {
  addTrustedEntityCertificates,
  type AddTrustedEntityCertificatesDeps,
} from '../use-cases/add-trusted-entity-certificates.js';
import {
  changeTrustedEntityStatus,
  type ChangeTrustedEntityStatusDeps,
} from '../use-cases/change-trusted-entity-status.js';
import { createTrustedEntity, type CreateTrustedEntityDeps } from '../use-cases/create-trusted-entity.js';
import { getTrustedEntity, type GetTrustedEntityDeps } from '../use-cases/get-trusted-entity.js';
import { listTrustedEntities, type ListTrustedEntitiesDeps } from '../use-cases/list-trusted-entities.js';
import {
  listTrustedEntityHistory,
  type ListTrustedEntityHistoryDeps,
} from '../use-cases/list-trusted-entity-history.js';
import {
  retireTrustedEntityCertificate,
  type RetireTrustedEntityCertificateDeps,
} from '../use-cases/retire-trusted-entity-certificate.js';
import { updateTrustedEntity, type UpdateTrustedEntityDeps } from '../use-cases/update-trusted-entity.js';
import { PathId } from './schemas.js';

export type TrustedEntityRouteDeps = CreateTrustedEntityDeps &
  ListTrustedEntitiesDeps &
  GetTrustedEntityDeps &
  UpdateTrustedEntityDeps &
  AddTrustedEntityCertificatesDeps &
  RetireTrustedEntityCertificateDeps &
  ChangeTrustedEntityStatusDeps &
  ListTrustedEntityHistoryDeps;

const EcosystemIdParams = Type.Object({ ecosystemId: PathId });
const EntityParams = Type.Object({ ecosystemId: PathId, entityId: PathId });
const CertificateParams = Type.Object({ ecosystemId: PathId, entityId: PathId, certificateId: PathId });
const BASE = '/v1/ecosystem/:ecosystemId/trusted-entities';
const TAGS = ['trust registry'];

/** The ecosystem's trusted issuers and verifiers: the lead governs them, lead and active members read them (README, Trust registry). */
export function registerTrustedEntityRoutes(app: App, deps: TrustedEntityRouteDeps): void {
  app.post(
    BASE,
    {
      schema: routeSchema(
        {
          summary: 'Register a trusted issuer or verifier',
          description:
            'Lead only. The entity is active at once. Certificates (1–20, one PEM each, ≤ 16 KiB) are parsed and kept with fingerprint, subject, SKI, AKI, validity and kind; expired, duplicate, unparseable and CA-without-SKI certificates are refused (400, each named in details).',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 413, 415, 503],
        },
        {
          params: EcosystemIdParams,
          body: TrustedEntityCreateBodySchema,
          response: { 201: envelopeOf(TrustedEntitySchema) },
        },
      ),
    },
    async (request, reply) => {
      const view = await createTrustedEntity(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        body: request.body,
      });
      return reply.code(201).send(envelope(201, 'Trusted entity registered.', presentTrustedEntity(view)));
    },
  );

  app.get(
    BASE,
    {
      schema: routeSchema(
        {
          summary: "List the ecosystem's trusted entities, oldest first",
          description:
            'Lead and active members. Filters: role, status, and vct / doctype (entities allowed to issue that type).',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 503],
        },
        {
          params: EcosystemIdParams,
          querystring: pagingQueryWith(TrustedEntityFilterSchema.properties),
          response: { 200: pageEnvelopeOf(TrustedEntitySchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { role, status, vct, doctype } = request.query;
      const filter = {
        ...(role ? { role } : {}),
        ...(status ? { status } : {}),
        ...(vct ? { vct } : {}),
        ...(doctype ? { doctype } : {}),
      };
      const { views, total } = await listTrustedEntities(deps, {
        principal: principalOf(request),
        ecosystemId: request.params.ecosystemId,
        filter,
        window,
      });
      return envelope(200, 'Trusted entities.', toPage(views.map(presentTrustedEntity), total, window));
    },
  );

  app.get(
    `${BASE}/:entityId`,
    {
      schema: routeSchema(
        {
          summary: 'Get a trusted entity with its current certificates',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 503],
        },
        { params: EntityParams, response: { 200: envelopeOf(TrustedEntitySchema) } },
      ),
    },
    async (request) => {
      const view = await getTrustedEntity(deps, { principal: principalOf(request), ...request.params });
      return envelope(200, 'Trusted entity.', presentTrustedEntity(view));
    },
  );

  app.patch(
    `${BASE}/:entityId`,
    {
      schema: routeSchema(
        {
          summary: "Change a trusted entity's name, information URI or allowed credential types",
          description:
            'Lead only. Values equal to the current ones change nothing (no history entry). A withdrawn entity is 409 ENTITY_WITHDRAWN.',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: EntityParams,
          body: TrustedEntityPatchBodySchema,
          response: { 200: envelopeOf(TrustedEntitySchema) },
        },
      ),
    },
    async (request) => {
      const view = await updateTrustedEntity(deps, {
        principal: principalOf(request),
        ...request.params,
        body: request.body,
      });
      return envelope(200, 'Trusted entity updated.', presentTrustedEntity(view));
    },
  );

  app.post(
    `${BASE}/:entityId/certificates`,
    {
      schema: routeSchema(
        {
          summary: 'Add certificates to a trusted entity',
          description:
            'Lead only. The same rules as at registration; all are added or none. A withdrawn entity is 409 ENTITY_WITHDRAWN.',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: EntityParams,
          body: TrustedEntityCertificatesBodySchema,
          response: { 201: envelopeOf(TrustedEntitySchema) },
        },
      ),
    },
    async (request, reply) => {
      const view = await addTrustedEntityCertificates(deps, {
        principal: principalOf(request),
        ...request.params,
        body: request.body,
      });
      return reply.code(201).send(envelope(201, 'Certificates added.', presentTrustedEntity(view)));
    },
  );

  app.delete(
    `${BASE}/:entityId/certificates/:certificateId`,
    {
      schema: routeSchema(
        {
          summary: "Retire one of a trusted entity's certificates",
          description:
            'Lead only. The certificate leaves the list and stays in the history; retiring the last one is allowed. Unknown or retired already: 404 CERTIFICATE_NOT_FOUND. Answers the entity.',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 409, 503],
        },
        { params: CertificateParams, response: { 200: envelopeOf(TrustedEntitySchema) } },
      ),
    },
    async (request) => {
      const view = await retireTrustedEntityCertificate(deps, { principal: principalOf(request), ...request.params });
      return envelope(200, 'Certificate retired.', presentTrustedEntity(view));
    },
  );

  app.post(
    `${BASE}/:entityId/status`,
    {
      schema: routeSchema(
        {
          summary: 'Suspend, reactivate or withdraw a trusted entity',
          description:
            'Lead only. active ⇄ suspended, either → withdrawn (final: 409 ENTITY_WITHDRAWN). The current status again changes nothing (200, no history entry).',
          tags: TAGS,
          security: 'bearer',
          errors: [404, 409, 413, 415, 503],
        },
        {
          params: EntityParams,
          body: TrustedEntityStatusBodySchema,
          response: { 200: envelopeOf(TrustedEntitySchema) },
        },
      ),
    },
    async (request) => {
      const view = await changeTrustedEntityStatus(deps, {
        principal: principalOf(request),
        ...request.params,
        body: request.body,
      });
      return envelope(200, 'Trusted entity status.', presentTrustedEntity(view));
    },
  );

  app.get(
    `${BASE}/:entityId/history`,
    {
      schema: routeSchema(
        {
          summary: "A trusted entity's history of changes, oldest first",
          tags: TAGS,
          security: 'bearer',
          errors: [404, 503],
        },
        {
          params: EntityParams,
          querystring: pagingQueryWith({}),
          response: { 200: pageEnvelopeOf(TrustedEntityHistoryEntrySchema) },
        },
      ),
    },
    async (request) => {
      const window = pageWindow(request.query);
      const { rows, total } = await listTrustedEntityHistory(deps, {
        principal: principalOf(request),
        ...request.params,
        window,
      });
      return envelope(200, 'Trusted entity history.', toPage(rows.map(presentHistoryEntry), total, window));
    },
  );
}
