import type { OverAskingPolicy, Verifier } from '@tessera/contracts';
import type { VerifierRow } from '../db/schema.js';

export function toVerifier(row: VerifierRow): Verifier {
  return {
    id: row.id,
    verifierId: row.verifierId,
    ...(row.clientMetadata ? { clientMetadata: row.clientMetadata } : {}),
    overAskingPolicy: row.overAskingPolicy as OverAskingPolicy,
    strictHaip: row.strictHaip,
    createDateTime: row.createdAt.toISOString(),
    lastChangedDateTime: row.updatedAt.toISOString(),
  };
}
