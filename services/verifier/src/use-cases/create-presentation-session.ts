import type { CreatePresentationBody } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import { findVerifierForSession, type VerifierForSession } from '../db/verifiers.js';
import { requireValidDcqlQuery, walletDcqlQuery } from '../domain/dcql.js';
import { verifierNotFound } from '../domain/errors.js';
import { checkResponseModeOptions } from '../domain/response-mode.js';
import { encodeSessionTransactionData } from '../domain/transaction-data.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import type { SessionVerifiers } from '../state/session-verifiers.js';
import type { TrustLists } from '../state/trust-list-snapshots.js';
import { applyTrustList } from './steps/apply-trust-list.js';
import { judgeRegisteredUse } from './steps/judge-registered-use.js';
import {
  RememberedInputsChanged,
  startPresentationSession,
  type StartedPresentationSession,
  type StartPresentationSessionDeps,
} from './steps/start-presentation-session.js';

export interface CreatePresentationSessionDeps extends StartPresentationSessionDeps {
  /** The replica's ecosystem trust lists (a body naming `ecosystemId`). */
  trustLists: Pick<TrustLists, 'currentForMember'>;
  metrics: Pick<VerifierMetrics, 'countSessionCreated' | 'countOverAsking'>;
  /** The verifiers this replica last read for a session; without it (or `rememberedSigningMaterial`) every create reads them. */
  sessionVerifiers?: SessionVerifiers;
}

export interface CreatePresentationSessionInput {
  orgId: string;
  verifierId: string;
  body: CreatePresentationBody;
  requestId?: string;
}

/**
 * `POST presentation?verifierId=`: a session from a DCQL query given in the
 * body. Checks, in order: the query (400 INVALID_DCQL), the response-mode
 * options, the transaction data against the query, the verifier (404), the
 * query against the verifier's registration certificate (400 OVER_ASKING, or
 * the paths kept under the `warn` policy; the certificate is read with the
 * verifier, in one statement — or remembered from the last session of this verifier on
 * this replica, with the signing material, and checked by the insert: then the whole
 * create is that one statement); then, when the body names `ecosystemId`, the ecosystem's trust list (the
 * organisation must be its lead or an active member: 403 NOT_A_MEMBER
 * otherwise; 409 NO_TRUSTED_ISSUER when a credential query has no issuer on
 * it), which the session is then verified against instead of the
 * organisation's and the platform's anchors; then the shared session step,
 * whose insert locks the verifier again as the race guard against a
 * concurrent delete.
 */
export async function createPresentationSession(
  deps: CreatePresentationSessionDeps,
  input: CreatePresentationSessionInput,
): Promise<StartedPresentationSession> {
  const { dcql, ecosystemId, ...options } = input.body;
  requireValidDcqlQuery({ query: dcql, pointer: '/dcql' });
  checkResponseModeOptions(options);
  const bodyQuery = walletDcqlQuery(dcql as Record<string, unknown>);
  const transactionData = encodeSessionTransactionData(options.transactionData, bodyQuery);
  const checked: CheckedBody = { options, ecosystemId, bodyQuery, transactionData };
  // From what the replica remembers, in one statement (the insert checks it is still so);
  // anything refused or changed is tried again from what is stored, which alone decides.
  const remembered = deps.rememberedSigningMaterial
    ? deps.sessionVerifiers?.remembered(input.orgId, input.verifierId)
    : undefined;
  if (remembered) {
    const counts = deferredCounts(deps.metrics);
    try {
      const started = await createFromVerifier({ ...deps, metrics: counts }, input, checked, remembered, true);
      counts.apply();
      return started;
    } catch (error) {
      if (!(error instanceof RememberedInputsChanged || error instanceof AppError)) throw error;
      deps.sessionVerifiers?.forget(input.orgId, input.verifierId);
    }
  }
  const found = await findVerifierForSession(deps.db, { orgId: input.orgId, verifierId: input.verifierId });
  if (!found) throw verifierNotFound(input.verifierId);
  deps.sessionVerifiers?.remember(input.orgId, input.verifierId, found);
  return createFromVerifier(deps, input, checked, found, false);
}

/** The body as its own checks left it. */
interface CheckedBody {
  options: Omit<CreatePresentationBody, 'dcql' | 'ecosystemId'>;
  ecosystemId: string | undefined;
  bodyQuery: Record<string, unknown>;
  transactionData: string[] | null;
}

/** The session from the verifier found (or remembered: `fromMemory`), after the body's own checks. */
async function createFromVerifier(
  deps: CreatePresentationSessionDeps,
  input: CreatePresentationSessionInput,
  checked: CheckedBody,
  found: VerifierForSession,
  fromMemory: boolean,
): Promise<StartedPresentationSession> {
  const { options, ecosystemId } = checked;
  const { verifier, registration } = found;
  const judgement = judgeRegisteredUse(deps, {
    verifier,
    registration,
    dcqlQuery: checked.bodyQuery,
    pointer: '/dcql',
    now: deps.clock(),
    subject: 'session',
  });
  const dcqlQuery = ecosystemId
    ? applyTrustList({
        dcqlQuery: checked.bodyQuery,
        list: await deps.trustLists.currentForMember(ecosystemId, input.orgId, { requestId: input.requestId }),
        now: deps.clock(),
      })
    : checked.bodyQuery;
  return startPresentationSession(deps, {
    orgId: input.orgId,
    verifier,
    options,
    dcqlQuery,
    queryPointer: '/dcql',
    transactionData: checked.transactionData,
    ...(ecosystemId ? { trustEcosystemId: ecosystemId } : {}),
    judgement,
    ...(fromMemory
      ? {
          remembered: {
            verifier: {
              verifierId: verifier.verifierId,
              clientMetadata: verifier.clientMetadata,
              overAskingPolicy: verifier.overAskingPolicy,
              strictHaip: verifier.strictHaip,
              registrationJwt: registration?.jwt ?? null,
            },
          },
        }
      : {}),
    requestId: input.requestId,
  });
}

/**
 * The session metrics of an attempt made from remembered inputs, counted only once it
 * succeeds (`apply`): a refused or changed attempt is made again, and counts then.
 */
function deferredCounts(metrics: CreatePresentationSessionDeps['metrics']) {
  const counted: Array<() => void> = [];
  return {
    countSessionCreated: (responseMode: string, signer: string) =>
      void counted.push(() => metrics.countSessionCreated(responseMode, signer)),
    countOverAsking: (policy: 'refuse' | 'warn', subject: 'session' | 'template') =>
      void counted.push(() => metrics.countOverAsking(policy, subject)),
    apply: () => {
      for (const count of counted) count();
    },
  };
}
