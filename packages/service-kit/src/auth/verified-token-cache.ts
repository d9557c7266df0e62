import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { JWTPayload, JWTHeaderParameters } from 'jose';
import type { Principal } from './principal.js';

/** A token whose signature a key of the key set verified, kept until its `exp`. */
export interface VerifiedToken {
  protectedHeader: JWTHeaderParameters;
  payload: JWTPayload;
  /** The key the key set resolved for the token's header when its signature was verified. */
  key: unknown;
  /** `exp` in ms since the epoch (+ clock tolerance): the entry is useless after it. */
  usableUntilMs: number;
  principal: Principal;
}

/**
 * Tokens whose signatures this replica verified, keyed by the SHA-256 of the token's
 * bytes (a token that differs in any byte is another key and is verified afresh; the
 * bearer token itself is not kept), bounded: least recently used first out. Only
 * successful verifications are stored, so a caller sending invalid tokens fills nothing.
 */
export class VerifiedTokenCache {
  private readonly entries: LRUCache<string, VerifiedToken>;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `token`, unless it is absent or past `usableUntilMs` at `nowMs` (then it is dropped). */
  get(token: string, nowMs: number): VerifiedToken | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (entry && entry.usableUntilMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(token: string, entry: VerifiedToken): void {
    this.entries.set(keyOf(token), entry);
  }

  delete(token: string): void {
    this.entries.delete(keyOf(token));
  }
}

function keyOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
