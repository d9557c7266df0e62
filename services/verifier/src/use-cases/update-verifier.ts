import { ErrorCode, type ClientMetadata, type OverAskingPolicy } from '@tessera/contracts';
import { AppError, type Clock } from '@tessera/service-kit';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { updateVerifierMetadata } from '../db/verifiers.js';
import { verifierNotFound } from '../domain/errors.js';

export interface UpdateVerifierDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface UpdateVerifierInput {
  orgId: string;
  verifierId: string;
  /**
   * `verifierId` as repeated in the body by clients built from the API documents
   * (they describe the body as "Verifier"): must equal the path's, since a
   * verifier's id never changes (sessions and QR codes name it).
   */
  bodyVerifierId?: string;
  /** Replaces the display metadata; null clears it, undefined keeps it (PUT sends null for an absent one). */
  clientMetadata?: ClientMetadata | null;
  /** Absent keeps the current policy. */
  overAskingPolicy?: OverAskingPolicy;
  /** Absent keeps the current setting. */
  strictHaip?: boolean;
}

/** PUT and PATCH of a verifier: the settings given change, in one UPDATE (no read before the write). */
export async function updateVerifier(deps: UpdateVerifierDeps, input: UpdateVerifierInput): Promise<VerifierRow> {
  if (input.bodyVerifierId !== undefined && input.bodyVerifierId !== input.verifierId) {
    throw new AppError(
      400,
      ErrorCode.VERIFIER_ID_IMMUTABLE,
      `verifierId cannot change: the body names "${input.bodyVerifierId}", the path "${input.verifierId}". Create a new verifier instead.`,
      [{ path: '/verifierId', message: 'must equal the verifierId in the path' }],
    );
  }
  const row = await updateVerifierMetadata(deps.db, {
    orgId: input.orgId,
    verifierId: input.verifierId,
    ...(input.clientMetadata !== undefined ? { clientMetadata: input.clientMetadata } : {}),
    ...(input.overAskingPolicy !== undefined ? { overAskingPolicy: input.overAskingPolicy } : {}),
    ...(input.strictHaip !== undefined ? { strictHaip: input.strictHaip } : {}),
    now: deps.clock(),
  });
  if (!row) throw verifierNotFound(input.verifierId);
  return row;
}
