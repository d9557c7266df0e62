import { randomUUID } from 'node:crypto';
import type { ErrorDetail, TrustedEntityCreateBody } from '@tessera/contracts';
import { badRequest, type Principal } from '@tessera/service-kit';
import type { TrustedEntityCertificateRow, TrustedEntityRow } from '../db/schema.js';
import { isActiveParticipant } from '../db/standing.js';
import { insertCertificates } from '../db/trusted-entity-certificates.js';
import { insertTrustedEntity } from '../db/trusted-entities.js';
import { normaliseEntityName } from '../domain/entity-name.js';
import { readCertificate } from '../domain/read-certificate.js';
import { recordCreatedEntity } from '../domain/trusted-entity-history.js';
import { checkAllowedCredentialTypes } from '../domain/trusted-entity-rules.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';
import { changeTrustRegistry, type RegistryChangeDeps } from './steps/registry-change.js';
import { vetCertificateUploads } from './steps/vet-certificate-uploads.js';

/** The registry change's deps: its clock dates the change (history, timestamps, certificate validity). */
export type CreateTrustedEntityDeps = RegistryChangeDeps;

export interface CreateTrustedEntityInput {
  principal: Principal;
  ecosystemId: string;
  body: TrustedEntityCreateBody;
}

export interface TrustedEntityView {
  entity: TrustedEntityRow;
  /** Current certificates, oldest first. */
  certificates: TrustedEntityCertificateRow[];
}

/**
 * `POST /v1/ecosystem/{ecosystemId}/trusted-entities`: the lead registers an issuer or
 * verifier, `active` at once, with at least one certificate. Every problem of the body
 * is reported together (400 VALIDATION_FAILED); nothing is written then.
 */
export async function createTrustedEntity(
  deps: CreateTrustedEntityDeps,
  input: CreateTrustedEntityInput,
): Promise<TrustedEntityView> {
  const { ecosystem } = await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead']);
  const body = input.body;
  const at = deps.clock();
  const { name, problems: nameProblems } = normaliseEntityName(body.name);
  const allowedCredentialTypes = body.allowedCredentialTypes ?? [];
  const read = body.certificates.map((upload) => readCertificate(upload.pem));
  const { result } = await changeTrustRegistry(
    deps,
    { ecosystemId: ecosystem.id, actor: input.principal.sub, at },
    async (tx) => {
      const problems: ErrorDetail[] = [
        ...nameProblems,
        ...checkAllowedCredentialTypes(body.role, allowedCredentialTypes),
      ];
      if (body.orgId !== undefined && !(await isActiveParticipant(tx, ecosystem.id, body.orgId))) {
        problems.push({
          path: '/orgId',
          message: `organisation ${body.orgId} is neither the lead nor an active member of this ecosystem`,
        });
      }
      const vetted = await vetCertificateUploads(tx, {
        ecosystemId: ecosystem.id,
        read,
        now: at,
        path: '/certificates',
      });
      problems.push(...vetted.problems);
      if (problems.length > 0) throw badRequest('The trusted entity cannot be registered: see details.', problems);

      const entity = await insertTrustedEntity(tx, {
        id: randomUUID(),
        ecosystemId: ecosystem.id,
        name,
        role: body.role,
        orgId: body.orgId ?? null,
        informationUri: body.informationUri ?? null,
        allowedCredentialTypes,
        userId: input.principal.sub,
        at,
      });
      const certificates = await insertCertificates(tx, {
        ecosystemId: ecosystem.id,
        entityId: entity.id,
        certificates: vetted.certificates.map((certificate) => ({ ...certificate, id: randomUUID() })),
        userId: input.principal.sub,
        at,
      });
      return {
        result: { entity, certificates },
        history: {
          entityId: entity.id,
          change: 'created',
          from: null,
          to: recordCreatedEntity(entity, certificates),
          reason: null,
        },
      };
    },
  );
  return result;
}
