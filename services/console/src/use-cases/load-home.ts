import type { EcosystemListEntry, Invitation } from '@tessera/contracts';
import { can, type SignedInUser } from '../domain/signed-in-user.js';
import { allSucceeded, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';

export interface LoadHomeDeps {
  ecosystem: Pick<EcosystemApi, 'listEcosystems' | 'listMemberInvitations'>;
}

export interface Home {
  ecosystems: EcosystemListEntry[];
  /** Member invitations waiting for an answer from an organisation the user owns. */
  pendingInvitations: Array<Invitation & { orgId: string }>;
}

/** The start page: the user's ecosystems and the invitations waiting for their organisations' answer. */
export async function loadHome(
  deps: LoadHomeDeps,
  input: { token: string; user: SignedInUser },
): Promise<ServiceResult<Home>> {
  const owned = Object.entries(input.user.orgRoles)
    .filter(([, roles]) => can.own(roles))
    .map(([orgId]) => orgId);
  const actsInEcosystems = Object.values(input.user.orgRoles).some((roles) => can.actInEcosystems(roles));
  const [ecosystems, ...received] = await Promise.all([
    actsInEcosystems
      ? deps.ecosystem.listEcosystems(input.token, { pageSize: 100 })
      : Promise.resolve(succeeded({ totalItems: 0, totalPages: 0, page: 1, pageSize: 100, data: [] })),
    ...owned.map((orgId) =>
      deps.ecosystem.listMemberInvitations(input.token, {
        role: 'Ecosystem Member',
        orgId,
        status: 'pending',
        pageSize: 100,
      }),
    ),
  ]);
  const all = allSucceeded([ecosystems, ...received] as const);
  if (!all.ok) return all;
  const [ecosystemPage, ...invitationPages] = all.value;
  return succeeded({
    ecosystems: ecosystemPage.data,
    pendingInvitations: invitationPages.flatMap((page, index) =>
      page.data.map((invitation) => ({ ...invitation, orgId: owned[index]! })),
    ),
  });
}
