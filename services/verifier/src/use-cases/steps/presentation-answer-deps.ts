import type { SessionLimits } from '../../domain/session-limits.js';
import type { OpenSessionDecryptionKeyDeps } from './open-session-decryption-key.js';
import type { RunVerificationDeps } from './run-verification.js';
import type { SettleSessionOutcomeDeps } from './settle-session-outcome.js';

/**
 * What the two answer use cases take — the wallet's response at `response_uri`
 * (`receive-wallet-response.ts`) and the browser's over the Digital Credentials API
 * (`verify-dc-api-response.ts`): both admit and count the answer, open the session's
 * decryption key, run the verification and settle the session, so they take one deps.
 */
export type PresentationAnswerDeps = SettleSessionOutcomeDeps &
  RunVerificationDeps &
  OpenSessionDecryptionKeyDeps & { sessionLimits: SessionLimits };
