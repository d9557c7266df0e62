import type { JWK } from 'jose';
import type { CountedSession } from '../../db/sessions.js';
import type { Clock } from '../../domain/clock.js';
import { verifyPresentation, type PresentationFlow, type StatusListChecker, type VerificationCache, type VerifyPresentationResult } from '../../verification/index.js';
import type { LoadTrustStore } from './load-trust-store.js';

// Shared step of the two answer use cases: the verification engine with the session's facts.

export interface RunVerificationDeps {
  loadTrustStore: LoadTrustStore;
  /** One per app, so its token cache serves every verification. */
  statusLists: StatusListChecker;
  /** One per app: resolved trust and validated chains, keyed by their content (`verification-cache.ts`). */
  verificationCache: VerificationCache;
  clock: Clock;
  /** KB_MAX_AGE_SECONDS, CLOCK_SKEW_SECONDS. */
  kbMaxAgeSeconds: number;
  clockSkewSeconds: number;
}

export interface RunVerificationInput {
  /** As admitted: an answer's session carries its organisation's anchors, read with it. */
  session: CountedSession;
  vpToken: unknown;
  flow: PresentationFlow;
  /** True when the vp_token arrived inside the session's JWE: the key's thumbprint enters the mdoc handover. */
  encrypted: boolean;
}

/**
 * Runs the verification engine with everything the session fixed at creation,
 * the trust in force now (platform bundle + the organisation's anchors, read
 * fresh) and the app's status list checker and verification cache.
 */
export async function runVerification(deps: RunVerificationDeps, input: RunVerificationInput): Promise<VerifyPresentationResult> {
  const { session } = input;
  return verifyPresentation({
    vpToken: input.vpToken,
    dcqlQuery: session.dcqlQuery,
    clientId: session.clientId,
    nonce: session.nonce,
    ...(session.responseUri ? { responseUri: session.responseUri } : {}),
    flow: input.flow,
    ...(input.encrypted && session.encryptionPublicJwk ? { encryptionJwk: session.encryptionPublicJwk as JWK } : {}),
    ...(session.transactionData ? { transactionData: session.transactionData } : {}),
    trust: await deps.loadTrustStore(session.orgId, session.trustAnchors),
    cache: deps.verificationCache,
    statusLists: deps.statusLists,
    now: deps.clock(),
    kbMaxAgeSeconds: deps.kbMaxAgeSeconds,
    clockSkewSeconds: deps.clockSkewSeconds,
  });
}
