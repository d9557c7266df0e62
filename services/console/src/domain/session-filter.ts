import type { SessionListQuery, SessionState } from '@tessera/contracts';

/** How far back the session list looks. */
export const SESSION_WINDOWS = { hour: 3_600_000, day: 86_400_000, week: 604_800_000, all: undefined } as const;
export type SessionWindow = keyof typeof SESSION_WINDOWS;

/** The list's filters, each the verifier's: verifier, state and a time window (sent as `createdAfter`). */
export interface SessionFilter {
  verifierId?: string;
  state?: SessionState;
  window: SessionWindow;
}

/** The start of the window at `now` (the verifier's `createdAfter`); undefined for all time. */
export function createdSince(filter: SessionFilter, now: Date): Date | undefined {
  const span = SESSION_WINDOWS[filter.window];
  return span === undefined ? undefined : new Date(now.getTime() - span);
}

/** The filter as the verifier's list query (`GET verifier-presentation`) at `now`. */
export function sessionListQuery(
  filter: SessionFilter,
  now: Date,
): Pick<SessionListQuery, 'publicVerifierId' | 'state' | 'createdAfter'> {
  const since = createdSince(filter, now);
  return {
    ...(filter.verifierId ? { publicVerifierId: filter.verifierId } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(since ? { createdAfter: since.toISOString() } : {}),
  };
}
