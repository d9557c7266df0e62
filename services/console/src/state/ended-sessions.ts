import { LRUCache } from 'lru-cache';

/**
 * Sessions signed out through this replica, remembered until they would have expired
 * anyway: a copy of a signed-out session's cookie opens nothing here. Other replicas do
 * not know (there is no shared store); there the provider refuses the session's next
 * renewal, its refresh token revoked at sign-out (see the README, "Sessions in the
 * browser's cookie").
 */
export class EndedSessions {
  private readonly ended: LRUCache<string, true>;

  constructor(options: { maxEntries: number; maxAgeMs: number }) {
    this.ended = new LRUCache({ max: options.maxEntries, ttl: options.maxAgeMs });
  }

  end(sessionId: string): void {
    this.ended.set(sessionId, true);
  }

  has(sessionId: string): boolean {
    return this.ended.has(sessionId);
  }
}
