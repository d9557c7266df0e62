import { isUuid, type Principal } from '@tessera/service-kit';
import {
  findCurrentCertificate,
  listCurrentCertificates,
  retireCertificate,
} from '../db/trusted-entity-certificates.js';
import { certificateNotFound } from '../domain/errors.js';
import { recordCertificate } from '../domain/trusted-entity-history.js';
import { requireNotWithdrawn } from '../domain/trusted-entity-rules.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { changeTrustRegistry, type RegistryChangeDeps } from './steps/registry-change.js';
import { authoriseTrustedEntity, reloadTrustedEntity } from './steps/trusted-entity-access.js';

/** The registry change's deps: its clock dates the change (history, timestamps, certificate validity). */
export type RetireTrustedEntityCertificateDeps = RegistryChangeDeps;

export interface RetireTrustedEntityCertificateInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
  certificateId: string;
}

/**
 * `DELETE .../trusted-entities/{entityId}/certificates/{certificateId}`: the lead
 * retires a current certificate. It leaves the list at once but is kept (the history
 * names it). Retiring the last one is allowed: the entity then matches nothing until a
 * certificate is added. Unknown or already retired: 404 CERTIFICATE_NOT_FOUND; a
 * withdrawn entity: 409 ENTITY_WITHDRAWN. Answers the entity as it now stands.
 */
export async function retireTrustedEntityCertificate(
  deps: RetireTrustedEntityCertificateDeps,
  input: RetireTrustedEntityCertificateInput,
): Promise<TrustedEntityView> {
  const { ecosystem, entity: found } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead'],
  );
  if (!isUuid(input.certificateId)) throw certificateNotFound();
  const at = deps.clock();
  const { result } = await changeTrustRegistry(
    deps,
    { ecosystemId: ecosystem.id, actor: input.principal.sub, at },
    async (tx) => {
      const entity = await reloadTrustedEntity(tx, ecosystem.id, found.id);
      requireNotWithdrawn(entity.status);
      const certificate = await findCurrentCertificate(tx, ecosystem.id, entity.id, input.certificateId);
      if (!certificate) throw certificateNotFound();
      await retireCertificate(tx, {
        ecosystemId: ecosystem.id,
        certificateId: certificate.id,
        userId: input.principal.sub,
        at,
      });
      const certificates = await listCurrentCertificates(tx, ecosystem.id, [entity.id]);
      return {
        result: { entity, certificates },
        history: {
          entityId: entity.id,
          change: 'certificate-retired',
          from: { certificates: [recordCertificate(certificate)] },
          to: null,
          reason: null,
        },
      };
    },
  );
  return result;
}
