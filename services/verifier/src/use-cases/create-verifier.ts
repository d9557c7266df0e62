import { randomUUID } from 'node:crypto';
import { ErrorCode, type ClientMetadata, type OverAskingPolicy } from '@tessera/contracts';
import { type Clock, conflict } from '@tessera/service-kit';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { insertVerifier } from '../db/verifiers.js';

export interface CreateVerifierDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface CreateVerifierInput {
  orgId: string;
  verifierId: string;
  clientMetadata?: ClientMetadata;
  /** Default `refuse` (it matters only once the verifier has a registration certificate). */
  overAskingPolicy?: OverAskingPolicy;
  /** Default false. */
  strictHaip?: boolean;
}

/** A new verifier of the organisation; 409 VERIFIER_EXISTS when its `verifierId` is taken. */
export async function createVerifier(deps: CreateVerifierDeps, input: CreateVerifierInput): Promise<VerifierRow> {
  const row = await insertVerifier(deps.db, {
    id: randomUUID(),
    orgId: input.orgId,
    verifierId: input.verifierId,
    clientMetadata: input.clientMetadata ?? null,
    ...(input.overAskingPolicy !== undefined ? { overAskingPolicy: input.overAskingPolicy } : {}),
    ...(input.strictHaip !== undefined ? { strictHaip: input.strictHaip } : {}),
    now: deps.clock(),
  });
  if (!row) throw conflict(ErrorCode.VERIFIER_EXISTS, `The organisation already has a verifier "${input.verifierId}".`);
  return row;
}
