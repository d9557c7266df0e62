import type { EcosystemListEntry, PageOf, TrustedEntity, TrustedEntityHistoryEntry } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';
import { findEcosystem } from './steps/find-ecosystem.js';

export interface LoadTrustedEntityDeps {
  ecosystem: Pick<EcosystemApi, 'getEcosystem' | 'getTrustedEntity' | 'listEntityHistory'>;
}

export interface TrustedEntityView {
  ecosystem: EcosystemListEntry;
  lead: boolean;
  entity: TrustedEntity;
  history: PageOf<TrustedEntityHistoryEntry>;
}

/** One trusted entity: its certificates, status and every change to it (oldest first). */
export async function loadTrustedEntity(
  deps: LoadTrustedEntityDeps,
  input: { token: string; ecosystemId: string; entityId: string; historyPage: number },
): Promise<ServiceResult<TrustedEntityView>> {
  const [ecosystem, entity, history] = await Promise.all([
    findEcosystem(deps.ecosystem, input.token, input.ecosystemId),
    deps.ecosystem.getTrustedEntity(input.token, input.ecosystemId, input.entityId),
    deps.ecosystem.listEntityHistory(input.token, input.ecosystemId, input.entityId, {
      pageNumber: input.historyPage,
      pageSize: 20,
    }),
  ]);
  if (!ecosystem.ok) return ecosystem;
  if (!entity.ok) return entity;
  if (!history.ok) return history;
  return succeeded({
    ecosystem: ecosystem.value,
    lead: ecosystem.value.role === 'Ecosystem Lead',
    entity: entity.value,
    history: history.value,
  });
}
