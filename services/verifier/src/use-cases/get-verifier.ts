import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { findVerifier } from '../db/verifiers.js';
import { verifierNotFound } from '../domain/errors.js';

export interface GetVerifierInput {
  orgId: string;
  verifierId: string;
}

/** One verifier of the organisation; 404 VERIFIER_NOT_FOUND otherwise. */
export async function getVerifier(deps: { db: VerifierDb }, input: GetVerifierInput): Promise<VerifierRow> {
  const row = await findVerifier(deps.db, input);
  if (!row) throw verifierNotFound(input.verifierId);
  return row;
}
