import type { Clock } from '@tessera/service-kit';
import { persistSessionExpiry, type PersistSessionExpiryDeps } from './steps/persist-session-expiry.js';

export interface ExpireDueSessionsDeps extends PersistSessionExpiryDeps {
  clock: Clock;
}

export interface ExpireDueSessionsInput {
  /** Sessions expired per statement. */
  batchSize?: number;
  /** Statements per run at most, so one run of a large backlog yields to the next tick. */
  maxBatches?: number;
}

/**
 * Expiry of open sessions (one run; the session lifetimes job in `jobs/` repeats it on every replica): moves every
 * open session past its `expiresAt`, across organisations, to `Error`/SESSION_EXPIRED
 * through the same step reads use (`persist-session-expiry.ts`) — so the change is
 * published on `verifier.v1.session.updated` and written to the webhook outbox —
 * even when nobody reads the session again. Replicas sweeping together share the
 * work (SKIP LOCKED) and each session expires once. Answers how many it expired.
 */
export async function expireDueSessions(
  deps: ExpireDueSessionsDeps,
  input: ExpireDueSessionsInput = {},
): Promise<number> {
  const batchSize = input.batchSize ?? 500;
  const maxBatches = input.maxBatches ?? 20;
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const expired = await persistSessionExpiry(deps, { now: deps.clock(), limit: batchSize });
    total += expired;
    if (expired < batchSize) break;
  }
  return total;
}
