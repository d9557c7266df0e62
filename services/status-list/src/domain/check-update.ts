import { StatusListErrorCode } from '@tessera/contracts';
import type { StatusListClaims } from './status-list-claim-rules.js';

export interface StoredListFacts {
  bits: number;
  sub: string;
  iat: number;
}

export type UpdateCheck = { ok: true } | { ok: false; code: string; message: string };

/**
 * May `next` replace the stored list? `bits` and `sub` are fixed at creation; an
 * older `iat` is a stale update; an equal `iat` is a re-send and is accepted.
 */
export function checkUpdate(stored: StoredListFacts, next: StatusListClaims): UpdateCheck {
  if (next.bits !== stored.bits) {
    return {
      ok: false,
      code: StatusListErrorCode.BITS_MISMATCH,
      message: `This list has ${stored.bits} bit(s) per status, fixed at creation; the token has ${next.bits}.`,
    };
  }
  if (next.sub !== stored.sub) {
    return {
      ok: false,
      code: StatusListErrorCode.SUBJECT_MISMATCH,
      message: `The token's sub differs from this list's sub (${stored.sub}).`,
    };
  }
  if (next.iat < stored.iat) {
    return {
      ok: false,
      code: StatusListErrorCode.STALE_UPDATE,
      message: `The token's iat (${next.iat}) is older than the stored list's (${stored.iat}).`,
    };
  }
  return { ok: true };
}
