import type { VerificationErrorCode } from '@tessera/contracts';

export type VerificationCode = (typeof VerificationErrorCode)[keyof typeof VerificationErrorCode];

/**
 * Rows of VERIFIER.md's Verification table, in order. Checks run in this order
 * and the first that fails names the session's error code. The mdoc issuer
 * signature shares its code with the SD-JWT one but sits lower in the table.
 * Who the issuer is (`iss`, ISSUER_MISMATCH) and what it may issue
 * (CREDENTIAL_TYPE_NOT_ALLOWED) follow trust directly: they refine it.
 */
export const CheckRow = {
  VP_TOKEN_SHAPE: 1,
  SD_JWT_ISSUER_SIGNATURE: 2,
  ISSUER_TRUSTED: 3,
  ISSUER_IDENTIFIER: 4,
  CREDENTIAL_TYPE: 5,
  VALIDITY: 6,
  KEY_BINDING: 7,
  NONCE: 8,
  AUDIENCE: 9,
  KEY_BINDING_AGE: 10,
  TRANSACTION_DATA: 11,
  MDOC_ISSUER_SIGNATURE: 12,
  DEVICE_SIGNATURE: 13,
  DCQL: 14,
  STATUS: 15,
} as const;
export type CheckRow = (typeof CheckRow)[keyof typeof CheckRow];

/**
 * A failed check: its table row (for ordering), its code, the credential query of the
 * request it concerns (absent when it concerns none, or only an id the request does not
 * have), and a sentence naming what failed. The sentence is the engine's diagnosis for
 * its tests: it may quote what the wallet sent (a parser's message) or where a status
 * list lives, so the service never stores, returns or logs it — a session's message is
 * made from the code and the credential query id (`domain/session-errors.ts`).
 */
export interface CheckFailure {
  row: CheckRow;
  code: VerificationCode;
  credentialQueryId?: string;
  message: string;
}

export function failure(
  row: CheckRow,
  code: VerificationCode,
  message: string,
  credentialQueryId?: string,
): CheckFailure {
  return { row, code, message, ...(credentialQueryId !== undefined ? { credentialQueryId } : {}) };
}

/** The failure of the earliest row; ties go to the first one found (vp_token order). */
export function firstFailure(failures: Array<CheckFailure | undefined>): CheckFailure | undefined {
  let first: CheckFailure | undefined;
  for (const candidate of failures) {
    if (candidate && (!first || candidate.row < first.row)) first = candidate;
  }
  return first;
}

/**
 * Runs one check so that an unexpected exception becomes that check's own
 * failure: a throwing check must never let a presentation through.
 */
export async function guard(
  row: CheckRow,
  code: VerificationCode,
  what: string,
  run: () => Promise<CheckFailure | undefined> | CheckFailure | undefined,
): Promise<CheckFailure | undefined> {
  try {
    return await run();
  } catch (error) {
    return failure(row, code, `${what}: ${describeError(error)}`);
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'unexpected error';
}
