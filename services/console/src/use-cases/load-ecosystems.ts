import type { EcosystemListEntry, Invitation } from '@tessera/contracts';
import { allSucceeded, type ServiceResult } from '../domain/service-problem.js';
import { can, type SignedInUser } from '../domain/signed-in-user.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface LoadEcosystemsDeps {
  ecosystem: Pick<EcosystemApi, 'listEcosystems' | 'listMemberInvitations'>;
}

export interface EcosystemsOverview {
  ecosystems: EcosystemListEntry[];
  /** Member invitations each organisation the user owns received, every status. */
  received: Array<Invitation & { orgId: string }>;
  /** Organisations the user owns: the ones that may form an ecosystem or answer an invitation. */
  ownedOrganisations: string[];
}

/** The ecosystems the user's organisations lead or belong to, and the invitations they received. */
export async function loadEcosystems(
  deps: LoadEcosystemsDeps,
  input: { token: string; user: SignedInUser },
): Promise<ServiceResult<EcosystemsOverview>> {
  const ownedOrganisations = Object.entries(input.user.orgRoles)
    .filter(([, roles]) => can.own(roles))
    .map(([orgId]) => orgId)
    .sort();
  const loaded = allSucceeded(
    await Promise.all([
      deps.ecosystem.listEcosystems(input.token, { pageSize: 100 }),
      ...ownedOrganisations.map((orgId) =>
        deps.ecosystem.listMemberInvitations(input.token, { role: 'Ecosystem Member', orgId, pageSize: 100 }),
      ),
    ]),
  );
  if (!loaded.ok) return loaded;
  const [ecosystems, ...received] = loaded.value;
  return {
    ok: true,
    value: {
      ecosystems: (ecosystems as { data: EcosystemListEntry[] }).data,
      received: (received as Array<{ data: Invitation[] }>).flatMap((page, index) =>
        page.data.map((invitation) => ({ ...invitation, orgId: ownedOrganisations[index]! })),
      ),
      ownedOrganisations,
    },
  };
}
