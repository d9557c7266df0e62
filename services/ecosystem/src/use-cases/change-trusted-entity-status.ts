import type { TrustedEntityStatusBody } from '@tessera/contracts';
import { badRequest, type Principal } from '@tessera/service-kit';
import { listCurrentCertificates } from '../db/trusted-entity-certificates.js';
import { updateTrustedEntity } from '../db/trusted-entities.js';
import { planStatusChange } from '../domain/trusted-entity-rules.js';
import type { TrustedEntityView } from './create-trusted-entity.js';
import { changeTrustRegistry, type RegistryChangeDeps } from './steps/registry-change.js';
import { authoriseTrustedEntity, reloadTrustedEntity } from './steps/trusted-entity-access.js';

/** The registry change's deps: its clock dates the change (history, timestamps). */
export type ChangeTrustedEntityStatusDeps = RegistryChangeDeps;

export interface ChangeTrustedEntityStatusInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
  body: TrustedEntityStatusBody;
}

/**
 * `POST .../trusted-entities/{entityId}/status`: the lead suspends, reactivates or
 * withdraws an entity, giving a reason. The current status again changes nothing (200,
 * no history entry, same sequence); a withdrawn entity is final (409 ENTITY_WITHDRAWN).
 * Decided under the registry lock, so of two changes at once the second sees the first.
 */
export async function changeTrustedEntityStatus(
  deps: ChangeTrustedEntityStatusDeps,
  input: ChangeTrustedEntityStatusInput,
): Promise<TrustedEntityView> {
  const { ecosystem, entity: found } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead'],
  );
  const at = deps.clock();
  const status = input.body.status;
  const reason = input.body.reason.trim();
  if (!reason)
    throw badRequest('The request is invalid: see details.', [
      { path: '/reason', message: 'body /reason must not be blank' },
    ]);
  const { result } = await changeTrustRegistry(
    deps,
    { ecosystemId: ecosystem.id, actor: input.principal.sub, at },
    async (tx) => {
      const entity = await reloadTrustedEntity(tx, ecosystem.id, found.id);
      const certificates = await listCurrentCertificates(tx, ecosystem.id, [entity.id]);
      if (planStatusChange(entity.status, status) === 'unchanged') return { result: { entity, certificates } };
      const updated = await updateTrustedEntity(
        tx,
        ecosystem.id,
        entity.id,
        { status, statusReason: reason, statusChangedAt: at },
        at,
      );
      return {
        result: { entity: updated, certificates },
        history: {
          entityId: entity.id,
          change: 'status-changed',
          from: { status: entity.status },
          to: { status },
          reason,
        },
      };
    },
  );
  return result;
}
