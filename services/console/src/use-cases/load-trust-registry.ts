import type { EcosystemListEntry, PageOf, TrustedEntity, TrustedEntityFilter } from '@tessera/contracts';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';
import { findEcosystem } from './steps/find-ecosystem.js';

export interface LoadTrustRegistryDeps {
  ecosystem: Pick<EcosystemApi, 'getEcosystem' | 'listTrustedEntities'>;
}

export interface TrustRegistryView {
  ecosystem: EcosystemListEntry;
  lead: boolean;
  entities: PageOf<TrustedEntity>;
  filter: TrustedEntityFilter;
}

/** The ecosystem's trusted issuers and verifiers, filtered as asked. */
export async function loadTrustRegistry(
  deps: LoadTrustRegistryDeps,
  input: { token: string; ecosystemId: string; filter: TrustedEntityFilter; pageNumber: number },
): Promise<ServiceResult<TrustRegistryView>> {
  const [ecosystem, entities] = await Promise.all([
    findEcosystem(deps.ecosystem, input.token, input.ecosystemId),
    deps.ecosystem.listTrustedEntities(input.token, input.ecosystemId, {
      ...input.filter,
      pageNumber: input.pageNumber,
      pageSize: 20,
    }),
  ]);
  if (!ecosystem.ok) return ecosystem;
  if (!entities.ok) return entities;
  return succeeded({
    ecosystem: ecosystem.value,
    lead: ecosystem.value.role === 'Ecosystem Lead',
    entities: entities.value,
    filter: input.filter,
  });
}
