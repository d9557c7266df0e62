import type { SessionRow } from '../../db/schema.js';
import { countRequestFetch, countSessionRequest, type CountedSession } from '../../db/sessions.js';
import type { VerifierDb } from '../../db/types.js';
import { checkSessionLimit, type SessionLimits } from '../../domain/session-limits.js';
import { refuse, type WalletOutcome } from '../../domain/wallet-refusal.js';

export interface AdmitWalletRequestDeps {
  db: VerifierDb;
  sessionLimits: SessionLimits;
}

export interface AdmitWalletRequestInput {
  authorizationRequestId: string;
  /** What the wallet does: fetch the request object, or answer it. */
  counter: 'requestFetch' | 'response';
  now: Date;
}

/**
 * The session a wallet request names, read and counted in one statement so every
 * request (junk included) counts against the session's limit on every replica:
 * `unknown-request` when there is none, `over-limit` with the seconds to wait
 * beyond the limit (SESSION_REQUEST_FETCH_LIMIT / SESSION_RESPONSE_LIMIT per window).
 * An answer's session comes with its organisation's trust anchors (same statement).
 */
export async function admitWalletRequest(
  deps: AdmitWalletRequestDeps,
  input: AdmitWalletRequestInput,
): Promise<WalletOutcome<CountedSession>> {
  const { counter, now } = input;
  const session = await countSessionRequest(deps.db, {
    session: { authorizationRequestId: input.authorizationRequestId },
    counter,
    now,
    windowMs: deps.sessionLimits.windowMs,
  });
  if (!session) return refuse.unknownRequest();
  return overLimit(deps, session, counter, now) ?? { ok: true, value: session };
}

/**
 * `admitWalletRequest` for a request-object fetch, which in the same statement also
 * makes the first retrieval (`RequestCreated` → `RequestUriRetrieved`, `countRequestFetch`)
 * when the fetch is admitted and served the stored object; `retrieved` says whether this
 * fetch moved it.
 */
export async function admitRequestFetch(
  deps: AdmitWalletRequestDeps,
  input: { authorizationRequestId: string; now: Date; servesStoredObject: boolean },
): Promise<WalletOutcome<{ session: SessionRow; retrieved: boolean }>> {
  const counted = await countRequestFetch(deps.db, {
    authorizationRequestId: input.authorizationRequestId,
    now: input.now,
    windowMs: deps.sessionLimits.windowMs,
    limit: deps.sessionLimits.requestFetches,
    servesStoredObject: input.servesStoredObject,
  });
  if (!counted) return refuse.unknownRequest();
  return overLimit(deps, counted.session, 'requestFetch', input.now) ?? { ok: true, value: counted };
}

/** The refusal of a request counted beyond its session's limit; undefined when within it. */
function overLimit(
  deps: AdmitWalletRequestDeps,
  session: SessionRow,
  counter: AdmitWalletRequestInput['counter'],
  now: Date,
): WalletOutcome<never> | undefined {
  const limit = checkSessionLimit({ session, counter, limits: deps.sessionLimits, now });
  if (!limit.ok) return refuse.overLimit(limit.retryAfterSeconds);
  return undefined;
}
