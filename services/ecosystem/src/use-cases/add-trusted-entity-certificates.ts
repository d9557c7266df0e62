import { randomUUID } from 'node:crypto';
import type { TrustedEntityCertificatesBody } from '@tessera/contracts';
import { badRequest, type Principal } from '@tessera/service-kit';
import { insertCertificates, listCurrentCertificates } from '../db/trusted-entity-certificates.js';
import { readCertificate } from '../domain/read-certificate.js';
import { recordCertificate } from '../domain/trusted-entity-history.js';
import { requireNotWithdrawn } from '../domain/trusted-entity-rules.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { changeTrustRegistry, type RegistryChangeDeps } from './steps/registry-change.js';
import { authoriseTrustedEntity, reloadTrustedEntity } from './steps/trusted-entity-access.js';
import { vetCertificateUploads } from './steps/vet-certificate-uploads.js';

/** The registry change's deps: its clock dates the change (history, timestamps, certificate validity). */
export type AddTrustedEntityCertificatesDeps = RegistryChangeDeps;

export interface AddTrustedEntityCertificatesInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
  body: TrustedEntityCertificatesBody;
}

/**
 * `POST .../trusted-entities/{entityId}/certificates`: the lead adds 1–20 certificates
 * under the same rules as at registration; all are added or none. One history entry
 * names them all. A withdrawn entity is 409 ENTITY_WITHDRAWN.
 */
export async function addTrustedEntityCertificates(
  deps: AddTrustedEntityCertificatesDeps,
  input: AddTrustedEntityCertificatesInput,
): Promise<TrustedEntityView> {
  const { ecosystem, entity: found } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead'],
  );
  const at = deps.clock();
  const read = input.body.certificates.map((upload) => readCertificate(upload.pem));
  const { result } = await changeTrustRegistry(
    deps,
    { ecosystemId: ecosystem.id, actor: input.principal.sub, at },
    async (tx) => {
      const entity = await reloadTrustedEntity(tx, ecosystem.id, found.id);
      requireNotWithdrawn(entity.status);
      const vetted = await vetCertificateUploads(tx, {
        ecosystemId: ecosystem.id,
        read,
        now: at,
        path: '/certificates',
      });
      if (vetted.problems.length > 0)
        throw badRequest('The certificates cannot be added: see details.', vetted.problems);
      const added = await insertCertificates(tx, {
        ecosystemId: ecosystem.id,
        entityId: entity.id,
        certificates: vetted.certificates.map((certificate) => ({ ...certificate, id: randomUUID() })),
        userId: input.principal.sub,
        at,
      });
      const certificates = await listCurrentCertificates(tx, ecosystem.id, [entity.id]);
      return {
        result: { entity, certificates },
        history: {
          entityId: entity.id,
          change: 'certificate-added',
          from: null,
          to: { certificates: added.map(recordCertificate) },
          reason: null,
        },
      };
    },
  );
  return result;
}
