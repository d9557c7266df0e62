import type {
  EcosystemListEntry,
  EcosystemMember,
  EcosystemOrganisation,
  Intent,
  Invitation,
  PageOf,
  TrustPolicy,
} from '@tessera/contracts';
import { summariseSignedTrustList, type SignedTrustListSummary } from '../domain/signed-trust-list.js';
import { allSucceeded, succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { EcosystemApi } from '../network/ecosystem-api.js';
import { findEcosystem } from './steps/find-ecosystem.js';

export interface LoadEcosystemDeps {
  ecosystem: Pick<
    EcosystemApi,
    | 'getEcosystem'
    | 'listEcosystemOrganisations'
    | 'listMembers'
    | 'listMemberInvitations'
    | 'listIntents'
    | 'getTrustPolicy'
    | 'getTrustListVisibility'
    | 'getSignedTrustList'
  >;
}

export interface EcosystemView {
  entry: EcosystemListEntry;
  lead: boolean;
  organisations: EcosystemOrganisation[];
  /** Lead only: every membership, and the invitations sent. */
  members?: EcosystemMember[];
  invitations?: Invitation[];
  intents: PageOf<Intent>;
  trustPolicy: TrustPolicy;
  /** The signed list is served without a token (the lead's setting). */
  trustListPublic: boolean;
  /** The signed list as a member reads it now; undefined when it could not be read. */
  signedList?: SignedTrustListSummary;
}

/** An ecosystem as its lead manages it or a member reads it. */
export async function loadEcosystem(
  deps: LoadEcosystemDeps,
  input: { token: string; ecosystemId: string; intentsPage: number },
): Promise<ServiceResult<EcosystemView>> {
  const { token, ecosystemId } = input;
  const entry = await findEcosystem(deps.ecosystem, token, ecosystemId);
  if (!entry.ok) return entry;
  const lead = entry.value.role === 'Ecosystem Lead';
  const [shared, leadOnly, signedList] = await Promise.all([
    Promise.all([
      deps.ecosystem.listEcosystemOrganisations(token, ecosystemId, { pageSize: 100 }),
      deps.ecosystem.listIntents(token, ecosystemId, { pageNumber: input.intentsPage, pageSize: 20 }),
      deps.ecosystem.getTrustPolicy(token, ecosystemId),
      deps.ecosystem.getTrustListVisibility(token, ecosystemId),
    ] as const).then((results) => allSucceeded(results)),
    lead
      ? Promise.all([
          deps.ecosystem.listMembers(token, ecosystemId, { pageSize: 100 }),
          deps.ecosystem.listMemberInvitations(token, { role: 'Ecosystem Lead', ecosystemId, pageSize: 100 }),
        ] as const).then((results) => allSucceeded(results))
      : Promise.resolve(undefined),
    deps.ecosystem.getSignedTrustList(token, ecosystemId),
  ]);
  if (!shared.ok) return shared;
  if (leadOnly && !leadOnly.ok) return leadOnly;
  const [organisations, intents, policy, visibility] = shared.value;
  const summary = signedList.ok ? summariseSignedTrustList(signedList.value.body) : undefined;
  return succeeded({
    entry: entry.value,
    lead,
    organisations: organisations.data,
    ...(leadOnly ? { members: leadOnly.value[0].data, invitations: leadOnly.value[1].data } : {}),
    intents,
    trustPolicy: policy.policy,
    trustListPublic: visibility.public,
    ...(summary ? { signedList: summary } : {}),
  });
}
