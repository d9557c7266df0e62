import type { CreatePresentationBody } from '@tessera/contracts';
import { findVerifier } from '../db/verifiers.js';
import { requireValidDcqlQuery, walletDcqlQuery } from '../domain/dcql.js';
import { verifierNotFound } from '../domain/errors.js';
import { checkResponseModeOptions } from '../domain/response-mode.js';
import { encodeSessionTransactionData } from '../domain/transaction-data.js';
import { startPresentationSession, type StartedPresentationSession, type StartPresentationSessionDeps } from './steps/start-presentation-session.js';

export type CreatePresentationSessionDeps = StartPresentationSessionDeps;

export interface CreatePresentationSessionInput {
  orgId: string;
  verifierId: string;
  body: CreatePresentationBody;
  requestId?: string;
}

/**
 * `POST presentation?verifierId=`: a session from a DCQL query given in the
 * body. Checks, in order: the query (400 INVALID_DCQL), the response-mode
 * options, the transaction data against the query, the verifier (404); then
 * the shared session step, whose insert locks the verifier again as the race
 * guard against a concurrent delete.
 */
export async function createPresentationSession(deps: CreatePresentationSessionDeps, input: CreatePresentationSessionInput): Promise<StartedPresentationSession> {
  const { dcql, ...options } = input.body;
  requireValidDcqlQuery({ query: dcql, pointer: '/dcql' });
  checkResponseModeOptions(options);
  const dcqlQuery = walletDcqlQuery(dcql as Record<string, unknown>);
  const transactionData = encodeSessionTransactionData(options.transactionData, dcqlQuery);
  const verifier = await findVerifier(deps.db, { orgId: input.orgId, verifierId: input.verifierId });
  if (!verifier) throw verifierNotFound(input.verifierId);
  return startPresentationSession(deps, { orgId: input.orgId, verifier, options, dcqlQuery, transactionData, requestId: input.requestId });
}
