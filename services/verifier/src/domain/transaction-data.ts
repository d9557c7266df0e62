import type { ErrorDetail } from '@tessera/contracts';
import { badRequest } from '@tessera/service-kit';
import { credentialQueryIds } from './dcql.js';

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
        details.push({
          path: `/transactionData/${index}/credential_ids/${idIndex}`,
          message: `names no credential query of the DCQL query (${String(id)})`,
        });
      }
    });
  });
  if (details.length > 0) return { ok: false, details };
  return {
    ok: true,
    encoded: options.entries.map((entry) => Buffer.from(JSON.stringify(entry), 'utf8').toString('base64url')),
  };
}

/**
 * A session's `transaction_data` as stored and sent (null when the body has
 * none); 400 VALIDATION_FAILED with the paths of entries naming unknown credential queries.
 */
export function encodeSessionTransactionData(
  entries: Array<Record<string, unknown>> | undefined,
  dcqlQuery: Record<string, unknown>,
): string[] | null {
  if (!entries) return null;
  const encoded = encodeTransactionData({ entries, credentialIds: credentialQueryIds(dcqlQuery) });
  if (!encoded.ok) throw badRequest('transactionData must name credential queries of the DCQL query.', encoded.details);
  return encoded.encoded;
}
