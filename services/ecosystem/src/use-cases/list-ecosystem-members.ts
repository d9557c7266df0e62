import type { PageWindow, Principal } from '@tessera/service-kit';
import { listMembers, type MemberView } from '../db/memberships.js';
import type { EcosystemDb } from '../db/types.js';
import { authoriseEcosystem } from './steps/ecosystem-access.js';

export interface ListEcosystemMembersDeps {
  db: EcosystemDb;
}

export interface ListEcosystemMembersInput {
  principal: Principal;
  ecosystemId: string;
  window: PageWindow;
}

export interface ListEcosystemMembersResult {
  rows: MemberView[];
  total: number;
}

/** `GET /v1/ecosystem/members`: every membership of the lead's ecosystem (the lead's included), oldest first. */
export async function listEcosystemMembers(
  deps: ListEcosystemMembersDeps,
  input: ListEcosystemMembersInput,
): Promise<ListEcosystemMembersResult> {
  await authoriseEcosystem(deps.db, input.principal, input.ecosystemId, ['lead']);
  return listMembers(deps.db, input.ecosystemId, input.window);
}
