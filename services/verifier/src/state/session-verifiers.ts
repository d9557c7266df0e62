import { LRUCache } from 'lru-cache';
import type { VerifierForSession } from '../db/verifiers.js';

/**
 * The verifiers this replica last read for a new session (with their registration
 * certificates), so the next session of the same verifier needs no read of its own:
 * what is remembered is never trusted alone — the session's insert checks, in its own
 * statement, that the verifier and its certificate are still as remembered
 * (`insertSession` expectations), and a session refused or found changed is made again
 * from a fresh read (`use-cases/create-presentation-session.ts`). Bounded: the least
 * recently used are forgotten first.
 */
export interface SessionVerifiers {
  remembered(orgId: string, verifierId: string): VerifierForSession | undefined;
  remember(orgId: string, verifierId: string, found: VerifierForSession): void;
  forget(orgId: string, verifierId: string): void;
}

export function createSessionVerifiers(options: { max?: number } = {}): SessionVerifiers {
  const known = new LRUCache<string, VerifierForSession>({ max: options.max ?? 5_000 });
  // Organisation and verifier id as one key that no two pairs share.
  const keyOf = (orgId: string, verifierId: string) => JSON.stringify([orgId, verifierId]);
  return {
    remembered: (orgId, verifierId) => known.get(keyOf(orgId, verifierId)),
    remember: (orgId, verifierId, found) => void known.set(keyOf(orgId, verifierId), found),
    forget: (orgId, verifierId) => void known.delete(keyOf(orgId, verifierId)),
  };
}
