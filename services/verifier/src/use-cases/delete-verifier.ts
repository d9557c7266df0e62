import { ErrorCode } from '@tessera/contracts';
import { type Clock, conflict } from '@tessera/service-kit';
import type { VerifierRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { countOpenSessionsOfVerifier, deleteVerifierRow, findVerifier } from '../db/verifiers.js';
import { verifierNotFound } from '../domain/errors.js';

export interface DeleteVerifierDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface DeleteVerifierInput {
  orgId: string;
  verifierId: string;
}

/** Deletes a verifier no open session uses (409 VERIFIER_IN_USE otherwise); returns what was deleted. */
export async function deleteVerifier(deps: DeleteVerifierDeps, input: DeleteVerifierInput): Promise<VerifierRow> {
  const { orgId, verifierId } = input;
  return deps.db.transaction(async (tx) => {
    // FOR UPDATE: waits for session inserts holding FOR SHARE, so no session is created for a deleted verifier.
    const row = await findVerifier(tx, { orgId, verifierId, lock: 'update' });
    if (!row) throw verifierNotFound(verifierId);
    if ((await countOpenSessionsOfVerifier(tx, { orgId, verifierRef: row.id, now: deps.clock() })) > 0) {
      throw conflict(
        ErrorCode.VERIFIER_IN_USE,
        `Verifier "${verifierId}" has open presentation sessions; delete it after they are answered or expired.`,
      );
    }
    await deleteVerifierRow(tx, { orgId, id: row.id });
    return row;
  });
}
