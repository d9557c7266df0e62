/**
 * Per-session limits on the public endpoints (SESSION_REQUEST_FETCH_LIMIT,
 * SESSION_RESPONSE_LIMIT). Thousands of phones behind one carrier-grade NAT share
 * a public address, so the per-address limit must be generous; what bounds the
 * work one QR code can cause is a limit per session, counted in the database so
 * every replica sees the same count.
 */
export interface SessionLimits {
  /** Request-object fetches (GET/POST `request_uri`) per session and window. */
  requestFetches: number;
  /** Answers (wallet response, DC API response) per session and window. */
  responses: number;
  /** The counting window, in milliseconds. */
  windowMs: number;
}

/** A session's counts in the current window, as counted with the request (a session row has them). */
export interface SessionRequestCounts {
  requestFetchCount: number;
  responseCount: number;
  /** When the current window started; null before the first counted request. */
  limitWindowStartedAt: Date | null;
}

export type SessionLimitCheck = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Whether the request just counted (see `countSessionRequest`) is within the
 * session's limit. Over it, `retryAfterSeconds` is when the window restarts.
 */
export function checkSessionLimit(options: {
  session: SessionRequestCounts;
  counter: 'requestFetch' | 'response';
  limits: SessionLimits;
  now: Date;
}): SessionLimitCheck {
  const { session, limits } = options;
  const [count, limit] =
    options.counter === 'requestFetch'
      ? [session.requestFetchCount, limits.requestFetches]
      : [session.responseCount, limits.responses];
  if (count <= limit) return { ok: true };
  const windowEnds = (session.limitWindowStartedAt ?? options.now).getTime() + limits.windowMs;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - options.now.getTime()) / 1000)) };
}
