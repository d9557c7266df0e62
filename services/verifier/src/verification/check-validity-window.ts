import { CheckRow, failure, type CheckFailure } from './check-order.js';

export interface CheckValidityWindowOptions {
  credentialQueryId: string;
  /** `nbf` / mdoc `validFrom`; an Error when present but malformed. */
  notBefore: Date | undefined | Error;
  /** `exp` / mdoc `validUntil`; an Error when present but malformed. */
  notAfter: Date | undefined | Error;
  now: Date;
  clockSkewSeconds: number;
}

export type CheckValidityWindowResult =
  { ok: true; validFrom?: string; validUntil?: string } | { ok: false; failure: CheckFailure };

/** Validity at verification time, with the configured clock skew on both ends (VERIFIER.md, Verification row 4). */
export function checkValidityWindow(options: CheckValidityWindowOptions): CheckValidityWindowResult {
  const { notBefore, notAfter, credentialQueryId: id } = options;
  const skewMs = options.clockSkewSeconds * 1000;
  if (notAfter instanceof Error)
    return {
      ok: false,
      failure: failure(
        CheckRow.VALIDITY,
        'CREDENTIAL_EXPIRED',
        `The credential of credential query "${id}" has no usable expiry: ${notAfter.message}.`,
      ),
    };
  if (notBefore instanceof Error)
    return {
      ok: false,
      failure: failure(
        CheckRow.VALIDITY,
        'CREDENTIAL_NOT_YET_VALID',
        `The credential of credential query "${id}" has no usable start of validity: ${notBefore.message}.`,
      ),
    };
  if (notAfter && options.now.getTime() > notAfter.getTime() + skewMs) {
    return {
      ok: false,
      failure: failure(
        CheckRow.VALIDITY,
        'CREDENTIAL_EXPIRED',
        `The credential of credential query "${id}" expired at ${notAfter.toISOString()}.`,
      ),
    };
  }
  if (notBefore && options.now.getTime() < notBefore.getTime() - skewMs) {
    return {
      ok: false,
      failure: failure(
        CheckRow.VALIDITY,
        'CREDENTIAL_NOT_YET_VALID',
        `The credential of credential query "${id}" is not valid before ${notBefore.toISOString()}.`,
      ),
    };
  }
  return {
    ok: true,
    ...(notBefore ? { validFrom: notBefore.toISOString() } : {}),
    ...(notAfter ? { validUntil: notAfter.toISOString() } : {}),
  };
}
