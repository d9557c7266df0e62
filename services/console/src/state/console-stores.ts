import type { ConsoleSession, PendingSignIn } from '../domain/console-session.js';
import type { ExpiringStore } from './expiring-store.js';

/** The signed-in sessions of this replica. */
export type SessionStore = ExpiringStore<ConsoleSession>;
/** Sign-ins waiting for the provider's answer. */
export type PendingSignInStore = ExpiringStore<PendingSignIn>;
