import type { PageWindow, Principal } from '@tessera/service-kit';
import type { TrustedEntityHistoryRow } from '../db/schema.js';
import { listHistory } from '../db/trusted-entity-history.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseTrustedEntity } from './steps/trusted-entity-access.js';

export interface ListTrustedEntityHistoryDeps {
  db: EcosystemDb;
}

export interface ListTrustedEntityHistoryInput {
  principal: Principal;
  ecosystemId: string;
  entityId: string;
  window: PageWindow;
}

/** `GET .../trusted-entities/{entityId}/history`: a page of the entity's changes, oldest first, for lead and active members. */
export async function listTrustedEntityHistory(
  deps: ListTrustedEntityHistoryDeps,
  input: ListTrustedEntityHistoryInput,
): Promise<{ rows: TrustedEntityHistoryRow[]; total: number }> {
  const { ecosystem, entity } = await authoriseTrustedEntity(
    deps.db,
    input.principal,
    input.ecosystemId,
    input.entityId,
    ['lead', 'member'],
  );
  return listHistory(deps.db, ecosystem.id, entity.id, input.window);
}
