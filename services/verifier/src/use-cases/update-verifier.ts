import type { ClientMetadata } from '@tessera/contracts';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { updateVerifierMetadata } from '../db/verifiers.js';
import type { Clock } from '../domain/clock.js';
import { verifierNotFound } from '../domain/errors.js';

export interface UpdateVerifierDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface UpdateVerifierInput {
  orgId: string;
  verifierId: string;
  /** Replaces the display metadata; absent clears it. */
  clientMetadata?: ClientMetadata;
}

export async function updateVerifier(deps: UpdateVerifierDeps, input: UpdateVerifierInput): Promise<VerifierRow> {
  const row = await updateVerifierMetadata(deps.db, { orgId: input.orgId, verifierId: input.verifierId, clientMetadata: input.clientMetadata ?? null, now: deps.clock() });
  if (!row) throw verifierNotFound(input.verifierId);
  return row;
}
