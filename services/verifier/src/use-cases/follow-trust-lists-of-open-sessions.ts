import { listTrustEcosystemsOfOpenSessions } from '../db/sessions.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '@tessera/service-kit';
import type { TrustLists } from '../state/trust-list-snapshots.js';

export interface FollowTrustListsOfOpenSessionsDeps {
  db: VerifierDb;
  clock: Clock;
  trustLists: Pick<TrustLists, 'follow'>;
}

/**
 * At a replica's start (run once by `jobs/`, in the background): fetches the trust
 * lists that its open sessions will be verified against, so the first answer does not
 * wait for them. A start neither waits for nor fails on the ecosystem service: a list
 * that cannot be had now is fetched by the verification that needs it (or that one
 * answers 503). Failures to fetch a list are logged by the snapshots, not thrown.
 */
export async function followTrustListsOfOpenSessions(deps: FollowTrustListsOfOpenSessionsDeps): Promise<void> {
  const ecosystemIds = await listTrustEcosystemsOfOpenSessions(deps.db, { now: deps.clock() });
  await deps.trustLists.follow(ecosystemIds);
}
