import type { CreatePresentationBody, ErrorDetail, RequestSigner } from '@tessera/contracts';

// The rarer options of a new presentation request as the form sends them (text fields
// and selects) → the create body's values. Only what a form cannot say is checked
// here (JSON syntax); the verifier judges the values and its refusals come back at
// their paths.

export type TransactionData = NonNullable<CreatePresentationBody['transactionData']>;

/**
 * The transaction data field: empty → none; otherwise a JSON array of objects (each
 * `{ type, credential_ids, … }`, judged by the verifier), or a problem at `/transactionData`.
 */
export function parseTransactionData(text: string): { value?: TransactionData } | { problem: ErrorDetail } {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: { path: '/transactionData', message: 'is not JSON: write an array of objects, [{ … }]' } };
  }
  if (
    !Array.isArray(parsed) ||
    parsed.some((entry) => typeof entry !== 'object' || entry === null || Array.isArray(entry))
  )
    return { problem: { path: '/transactionData', message: 'must be a JSON array of objects, [{ … }]' } };
  return { value: parsed as TransactionData };
}

/** The signer selects: none chosen → the default (the template's signer for an intent, the platform's P-256 leaf with x509_hash for a direct request). */
export function requestSignerOf(method: string, clientIdPrefix: string): RequestSigner | undefined {
  if (!method) return undefined;
  return {
    method: method as RequestSigner['method'],
    ...(clientIdPrefix ? { clientIdPrefix: clientIdPrefix as NonNullable<RequestSigner['clientIdPrefix']> } : {}),
  };
}
