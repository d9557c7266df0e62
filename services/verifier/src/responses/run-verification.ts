import type { JWK } from 'jose';
import type { ResponseMode } from '@tessera/contracts';
import type { VerifierContext } from '../context.js';
import type { SessionRow } from '../db/schema.js';
import { KeyDecryptionError } from '../crypto/key-encryption.js';
import { sessionKeyContext } from '../sessions/create-session.js';
import { buildTrustStore } from '../trust/build-trust-store.js';
import { isEncryptedMode } from '../domain/response-mode.js';
import { verifyPresentation, type PresentationFlow, type VerifyPresentationResult } from '../verification/index.js';

/**
 * The session's ephemeral ECDH-ES private JWK (encrypted modes only). A sealed
 * key that does not open is a server fault (wrong KEY_ENCRYPTION_KEY or an
 * altered row), logged and thrown: never read as the wallet's mistake.
 */
export function openSessionPrivateJwk(ctx: VerifierContext, session: SessionRow): JWK | undefined {
  if (!isEncryptedMode(session.responseMode as ResponseMode) || !session.encryptedEncryptionKey) return undefined;
  try {
    return JSON.parse(ctx.keyEncryptionKey.open(session.encryptedEncryptionKey, sessionKeyContext(session.id))) as JWK;
  } catch (error) {
    if (error instanceof KeyDecryptionError) ctx.logger.error({ err: error, sessionId: session.id }, 'session encryption key cannot be decrypted: check KEY_ENCRYPTION_KEY');
    throw error;
  }
}

export interface RunVerificationInput {
  vpToken: unknown;
  flow: PresentationFlow;
  /** True when the vp_token arrived inside the session's JWE: the key's thumbprint enters the mdoc handover. */
  encrypted: boolean;
}

/**
 * Runs the verification engine with everything the session fixed at creation,
 * the trust in force now (platform bundle + the organisation's anchors, read
 * fresh) and the app's status list checker.
 */
export async function runVerification(ctx: VerifierContext, session: SessionRow, input: RunVerificationInput): Promise<VerifyPresentationResult> {
  return verifyPresentation({
    vpToken: input.vpToken,
    dcqlQuery: session.dcqlQuery,
    clientId: session.clientId,
    nonce: session.nonce,
    ...(session.responseUri ? { responseUri: session.responseUri } : {}),
    flow: input.flow,
    ...(input.encrypted && session.encryptionPublicJwk ? { encryptionJwk: session.encryptionPublicJwk as JWK } : {}),
    ...(session.transactionData ? { transactionData: session.transactionData } : {}),
    trust: await buildTrustStore(ctx, session.orgId),
    statusLists: ctx.statusLists,
    now: ctx.now(),
    kbMaxAgeSeconds: ctx.config.KB_MAX_AGE_SECONDS,
    clockSkewSeconds: ctx.config.CLOCK_SKEW_SECONDS,
  });
}
