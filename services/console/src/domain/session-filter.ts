import type { SessionState } from '@tessera/contracts';

/** How far back the session list looks. */
export const SESSION_WINDOWS = { hour: 3_600_000, day: 86_400_000, week: 604_800_000, all: undefined } as const;
export type SessionWindow = keyof typeof SESSION_WINDOWS;

/** The list's filters: the verifier's two (verifier, state) and the console's own time window. */
export interface SessionFilter {
  verifierId?: string;
  state?: SessionState;
  window: SessionWindow;
}

/**
 * The earliest creation time a session may have to be listed. The verifier's list has no
 * time filter, but it is newest first, so the console reads pages until a session is older.
 */
export function createdSince(filter: SessionFilter, now: Date): Date | undefined {
  const span = SESSION_WINDOWS[filter.window];
  return span === undefined ? undefined : new Date(now.getTime() - span);
}
