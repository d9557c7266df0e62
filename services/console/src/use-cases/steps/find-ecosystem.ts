import type { EcosystemListEntry } from '@tessera/contracts';
import { failed, succeeded, type ServiceResult } from '../../domain/service-problem.js';
import type { EcosystemApi } from '../../network/ecosystem-api.js';

/** Pages read at most while looking for one ecosystem (100 each). */
const MAX_PAGES = 20;

/**
 * One ecosystem of the caller, with the caller's role in it. The ecosystem API has no
 * read of a single ecosystem, so its entry is found in the caller's list.
 */
export async function findEcosystem(
  ecosystem: Pick<EcosystemApi, 'listEcosystems'>,
  token: string,
  ecosystemId: string,
): Promise<ServiceResult<EcosystemListEntry>> {
  for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
    const page = await ecosystem.listEcosystems(token, { pageNumber, pageSize: 100 });
    if (!page.ok) return page;
    const found = page.value.data.find((entry) => entry.id === ecosystemId);
    if (found) return succeeded(found);
    if (pageNumber >= page.value.totalPages) break;
  }
  return failed({
    service: 'ecosystem',
    status: 404,
    code: 'ECOSYSTEM_NOT_FOUND',
    message: 'No ecosystem with this id that one of your organisations leads or belongs to.',
  });
}
