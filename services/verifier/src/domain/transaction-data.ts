import type { ErrorDetail } from '@tessera/contracts';

export interface EncodeTransactionDataOptions {
  /** Transaction data objects from the create body (`{ type, credential_ids, ... }`). */
  entries: Array<Record<string, unknown>>;
  /** Credential query ids of the session's DCQL query. */
  credentialIds: string[];
}

export type EncodeTransactionDataResult = { ok: true; encoded: string[] } | { ok: false; details: ErrorDetail[] };

/**
 * Checks each entry names only credential queries of the DCQL query and
 * encodes it as base64url JSON (OpenID4VP 1.0 §5.1 `transaction_data`). The
 * encoded strings are stored as sent: `transaction_data_hashes` are computed over them.
 */
export function encodeTransactionData(options: EncodeTransactionDataOptions): EncodeTransactionDataResult {
  const known = new Set(options.credentialIds);
  const details: ErrorDetail[] = [];
  options.entries.forEach((entry, index) => {
    const ids = Array.isArray(entry.credential_ids) ? entry.credential_ids : [];
    ids.forEach((id, idIndex) => {
      if (typeof id !== 'string' || !known.has(id)) {
        details.push({ path: `/transactionData/${index}/credential_ids/${idIndex}`, message: `names no credential query of the DCQL query (${String(id)})` });
      }
    });
  });
  if (details.length > 0) return { ok: false, details };
  return { ok: true, encoded: options.entries.map((entry) => Buffer.from(JSON.stringify(entry), 'utf8').toString('base64url')) };
}
