import type { CreatePresentationBody } from '@tessera/contracts';
import { findVerifierForSession } from '../db/verifiers.js';
import { requireValidDcqlQuery, walletDcqlQuery } from '../domain/dcql.js';
import { verifierNotFound } from '../domain/errors.js';
import { checkResponseModeOptions } from '../domain/response-mode.js';
import { encodeSessionTransactionData } from '../domain/transaction-data.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import type { TrustLists } from '../state/trust-list-snapshots.js';
import { applyTrustList } from './steps/apply-trust-list.js';
import { judgeRegisteredUse } from './steps/judge-registered-use.js';
import {
  startPresentationSession,
  type StartedPresentationSession,
  type StartPresentationSessionDeps,
} from './steps/start-presentation-session.js';

export interface CreatePresentationSessionDeps extends StartPresentationSessionDeps {
  /** The replica's ecosystem trust lists (a body naming `ecosystemId`). */
  trustLists: Pick<TrustLists, 'currentForMember'>;
  metrics: Pick<VerifierMetrics, 'countSessionCreated' | 'countOverAsking'>;
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
 * verifier, in one statement); then, when the body names `ecosystemId`, the ecosystem's trust list (the
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
  const found = await findVerifierForSession(deps.db, { orgId: input.orgId, verifierId: input.verifierId });
  if (!found) throw verifierNotFound(input.verifierId);
  const { verifier } = found;
  const judgement = judgeRegisteredUse(deps, {
    verifier,
    registration: found.registration,
    dcqlQuery: bodyQuery,
    pointer: '/dcql',
    now: deps.clock(),
    subject: 'session',
  });
  const dcqlQuery = ecosystemId
    ? applyTrustList({
        dcqlQuery: bodyQuery,
        list: await deps.trustLists.currentForMember(ecosystemId, input.orgId, { requestId: input.requestId }),
        now: deps.clock(),
      })
    : bodyQuery;
  return startPresentationSession(deps, {
    orgId: input.orgId,
    verifier,
    options,
    dcqlQuery,
    queryPointer: '/dcql',
    transactionData,
    ...(ecosystemId ? { trustEcosystemId: ecosystemId } : {}),
    judgement,
    requestId: input.requestId,
  });
}
