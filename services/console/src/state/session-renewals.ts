import { LRUCache } from 'lru-cache';

/** How long a renewal's outcome is kept for the requests still carrying the cookie from before it. */
const KEPT_MS = 30_000;

/**
 * Token renewals of this replica, by the session and the token being renewed: requests
 * that arrive together with the same cookie (a page and its event stream) renew once
 * and share the outcome, as do those that follow before the browser has the new cookie
 * — a refresh token may be single-use.
 */
export class SessionRenewals<T extends object> {
  private readonly renewals = new LRUCache<string, { outcome: Promise<T | undefined> }>({ max: 10_000, ttl: KEPT_MS });

  renew(key: string, renewal: () => Promise<T | undefined>): Promise<T | undefined> {
    let pending = this.renewals.get(key);
    if (!pending) {
      pending = { outcome: renewal() };
      this.renewals.set(key, pending);
    }
    return pending.outcome;
  }
}
