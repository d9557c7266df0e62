import { createHash } from 'node:crypto';
import { CheckRow, failure, type CheckFailure } from './check-order.js';

export interface TransactionDataConfirmation {
  credentialQueryId: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  /** The verified KB-JWT payload of an SD-JWT presentation, when it had one. */
  keyBindingPayload?: Record<string, unknown>;
}

export interface CheckTransactionDataOptions {
  /** `transaction_data` entries exactly as sent in the request (base64url JSON). */
  transactionData: string[];
  presentations: TransactionDataConfirmation[];
}

/**
 * OpenID4VP 1.0 §8.4: each transaction_data entry must be confirmed by the
 * presented credentials it names, through `transaction_data_hashes` in their
 * KB-JWTs (SHA-256 over the entry string exactly as sent, base64url). Every
 * presented credential an entry names must carry its hash, at least one must
 * be presented, and a KB-JWT may not carry hashes of entries that do not name
 * its credential. mdoc has no standard way to confirm transaction data here,
 * so an entry naming an mdoc credential cannot be confirmed.
 */
export function checkTransactionData(options: CheckTransactionDataOptions): CheckFailure | undefined {
  const mismatch = (message: string, credentialQueryId?: string): CheckFailure =>
    failure(CheckRow.TRANSACTION_DATA, 'TRANSACTION_DATA_MISMATCH', message, credentialQueryId);
  const expectedByQuery = new Map<string, Set<string>>();
  for (const [index, encoded] of options.transactionData.entries()) {
    let entry: { type?: unknown; credential_ids?: unknown; transaction_data_hashes_alg?: unknown };
    try {
      entry = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as typeof entry;
    } catch {
      return mismatch(`transaction_data[${index}] cannot be decoded.`);
    }
    const ids = Array.isArray(entry.credential_ids)
      ? entry.credential_ids.filter((id): id is string => typeof id === 'string')
      : [];
    const algs = entry.transaction_data_hashes_alg;
    if (Array.isArray(algs) && !algs.includes('sha-256'))
      return mismatch(`transaction_data[${index}] asks for a hash algorithm other than sha-256.`);
    const hash = createHash('sha256').update(encoded, 'ascii').digest('base64url');
    const confirming = options.presentations.filter((presentation) => ids.includes(presentation.credentialQueryId));
    if (confirming.length === 0)
      return mismatch(
        `transaction_data[${index}] (${String(entry.type)}) is not confirmed by any presented credential.`,
      );
    for (const presentation of confirming) {
      if (presentation.format === 'mso_mdoc')
        return mismatch(
          `transaction_data[${index}] names mdoc credential query "${presentation.credentialQueryId}", which cannot confirm transaction data.`,
          presentation.credentialQueryId,
        );
      const hashes = presentation.keyBindingPayload?.transaction_data_hashes;
      if (!Array.isArray(hashes) || !hashes.includes(hash)) {
        return mismatch(
          `The key binding JWT of credential query "${presentation.credentialQueryId}" does not confirm transaction_data[${index}] (${String(entry.type)}).`,
          presentation.credentialQueryId,
        );
      }
      const expected = expectedByQuery.get(presentation.credentialQueryId) ?? new Set<string>();
      expected.add(hash);
      expectedByQuery.set(presentation.credentialQueryId, expected);
    }
  }
  for (const presentation of options.presentations) {
    const payload = presentation.keyBindingPayload;
    if (
      !payload ||
      (payload.transaction_data_hashes === undefined && payload.transaction_data_hashes_alg === undefined)
    )
      continue;
    const hashes = payload.transaction_data_hashes;
    const expected = expectedByQuery.get(presentation.credentialQueryId) ?? new Set<string>();
    if (!Array.isArray(hashes) || hashes.some((hash) => typeof hash !== 'string' || !expected.has(hash))) {
      return mismatch(
        `The key binding JWT of credential query "${presentation.credentialQueryId}" carries transaction_data_hashes the request did not send for it.`,
        presentation.credentialQueryId,
      );
    }
    const alg = payload.transaction_data_hashes_alg;
    if (alg !== undefined && alg !== 'sha-256')
      return mismatch(
        `The key binding JWT of credential query "${presentation.credentialQueryId}" uses transaction_data_hashes_alg ${JSON.stringify(alg)}, not sha-256.`,
        presentation.credentialQueryId,
      );
  }
  return undefined;
}
