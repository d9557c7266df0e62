import { countSessionRequest, type CountedSession } from '../../db/sessions.js';
import type { VerifierDb } from '../../db/types.js';
import { OAuthError } from '../../routes/oauth-error.js';
import { checkSessionLimit, type SessionLimits } from '../../domain/session-limits.js';

export interface AdmitWalletRequestDeps {
  db: VerifierDb;
  sessionLimits: SessionLimits;
}

export interface AdmitWalletRequestInput {
  authorizationRequestId: string;
  /** What the wallet does: fetch the request object, or answer it. */
  counter: 'requestFetch' | 'response';
  now: Date;
  /** The OAuth error for an id that names no session (it differs between the two endpoints); made only then. */
  unknown: () => OAuthError;
  /** The sentence of the 429, given the seconds to wait. */
  overLimit: (retryAfterSeconds: number) => string;
}

/**
 * The session a wallet request names, read and counted in one statement so every
 * request (junk included) counts against the session's limit on every replica:
 * `unknown` when there is none, 429 `temporarily_unavailable` with Retry-After
 * beyond the limit (SESSION_REQUEST_FETCH_LIMIT / SESSION_RESPONSE_LIMIT per window).
 * An answer's session comes with its organisation's trust anchors (same statement).
 */
export async function admitWalletRequest(
  deps: AdmitWalletRequestDeps,
  input: AdmitWalletRequestInput,
): Promise<CountedSession> {
  const { counter, now } = input;
  const session = await countSessionRequest(deps.db, {
    session: { authorizationRequestId: input.authorizationRequestId },
    counter,
    now,
    windowMs: deps.sessionLimits.windowMs,
  });
  if (!session) throw input.unknown();
  const limit = checkSessionLimit({ session, counter, limits: deps.sessionLimits, now });
  if (!limit.ok)
    throw new OAuthError(429, 'temporarily_unavailable', input.overLimit(limit.retryAfterSeconds), {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  return session;
}
