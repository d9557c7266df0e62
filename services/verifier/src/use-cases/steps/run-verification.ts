import type { Tracer } from '@opentelemetry/api';
import type { JWK } from 'jose';
import { AppError, type Clock, dependencyUnavailable } from '@tessera/service-kit';
import type { CountedSession } from '../../db/sessions.js';
import type { TrustLists } from '../../state/trust-list-snapshots.js';
import {
  verifyPresentation,
  type PresentationFlow,
  type ResolvedTrustStore,
  type StatusListChecker,
  type TrustStore,
  type VerificationCache,
  type VerifyPresentationResult,
} from '../../verification/index.js';
import type { LoadTrustStore } from './load-trust-store.js';

// Shared step of the two answer use cases: the verification engine with the session's facts.

export interface RunVerificationDeps {
  loadTrustStore: LoadTrustStore;
  /** The replica's ecosystem trust lists, for sessions verified against one. */
  trustLists: Pick<TrustLists, 'current'>;
  /** One per app, so its token cache serves every verification. */
  statusLists: StatusListChecker;
  /** One per app: resolved trust and validated chains, keyed by their content (`verification-cache.ts`). */
  verificationCache: VerificationCache;
  clock: Clock;
  /** KB_MAX_AGE_SECONDS, CLOCK_SKEW_SECONDS. */
  kbMaxAgeSeconds: number;
  clockSkewSeconds: number;
  /** The service's tracer when tracing is on: the engine's checks then run in spans. */
  tracer?: Tracer;
}

export interface RunVerificationInput {
  /** As admitted: an answer's session carries its organisation's anchors, read with it. */
  session: CountedSession;
  vpToken: unknown;
  flow: PresentationFlow;
  /** True when the vp_token arrived inside the session's JWE: the key's thumbprint enters the mdoc handover. */
  encrypted: boolean;
  /** DC API, `openid4vp-v1-multisigned`: the KB-JWT audiences accepted (the origin, or one of the request's signers). */
  dcApiAudiences?: readonly string[];
  /** DC API, `org-iso-mdoc`: the ISO/IEC 18013-7 Annex C SessionTranscript the device signatures cover. */
  mdocSessionTranscript?: Uint8Array;
}

/**
 * Runs the verification engine with everything the session fixed at creation,
 * the trust in force now (platform bundle + the organisation's anchors, read
 * fresh; or, for a session following an ecosystem, that ecosystem's current
 * trust list) and the app's status list checker and verification cache.
 * Throws 503 DEPENDENCY_UNAVAILABLE, before anything is verified, when the
 * session follows an ecosystem whose current list cannot be had: the
 * verifier's outage is not the presentation's fault, so the caller leaves the
 * session open for the wallet to answer again.
 */
export async function runVerification(
  deps: RunVerificationDeps,
  input: RunVerificationInput,
): Promise<VerifyPresentationResult> {
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
    ...(input.dcApiAudiences ? { dcApiAudiences: input.dcApiAudiences } : {}),
    ...(input.mdocSessionTranscript ? { mdocSessionTranscript: input.mdocSessionTranscript } : {}),
    trust: await loadSessionTrust(deps, session),
    cache: deps.verificationCache,
    statusLists: deps.statusLists,
    now: deps.clock(),
    kbMaxAgeSeconds: deps.kbMaxAgeSeconds,
    clockSkewSeconds: deps.clockSkewSeconds,
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
  });
}

async function loadSessionTrust(
  deps: RunVerificationDeps,
  session: CountedSession,
): Promise<TrustStore | ResolvedTrustStore> {
  if (!session.trustEcosystemId) return deps.loadTrustStore(session.orgId, session.trustAnchors);
  try {
    return (await deps.trustLists.current(session.trustEcosystemId)).trust();
  } catch (error) {
    // Whatever kept the list away (silence, a refusal of the ecosystem, a list past its
    // nextUpdate) is, for the wallet answering, the same outage: 503, the session left open.
    const reason = error instanceof AppError ? error.message : 'it could not be read';
    throw dependencyUnavailable(
      `No current trust list of ecosystem ${session.trustEcosystemId} can be had to verify this presentation: ${reason}`,
      error,
    );
  }
}
