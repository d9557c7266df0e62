import type { Tracer } from '@opentelemetry/api';
import { unpackObj } from '@sd-jwt/decode';
import { CheckRow, describeError, failure, type CheckFailure } from './check-order.js';
import { checkCredentialType } from './check-credential-type.js';
import { checkDisclosures } from './check-disclosures.js';
import { checkIssuerIdentifier } from './check-issuer-identifier.js';
import { decodeDisclosures } from './decode-disclosures.js';
import { checkIssuerTrust, findIssuerKey } from './issuer-key.js';
import { decodeJws, verifyDecodedJwsSignature, type DecodedJws } from './jws-signature.js';
import type { ResolvedTrustStore } from './trust-store.js';
import { checkValidityWindow } from './check-validity-window.js';
import { traceCheck } from './trace-check.js';
import type { VerifiedCredential } from './verified-credential.js';
import { verifyKeyBinding } from './verify-key-binding.js';
import { SD_JWT_VC_ISSUER } from '../crypto/certificate-purposes.js';

const SD_ALGS = ['sha-256', 'sha-384', 'sha-512'];

export interface VerifySdJwtVcOptions {
  credentialQueryId: string;
  /** One presentation from the vp_token: `<issuer JWT>~<disclosure>~…~<KB-JWT>`. */
  presentation: string;
  trust: ResolvedTrustStore;
  /** `require_cryptographic_holder_binding` of the credential query. */
  requireHolderBinding: boolean;
  nonce: string;
  /** Expected KB-JWT `aud` (or the acceptable ones: see verify-key-binding.ts). */
  audience: string | readonly string[];
  now: Date;
  kbMaxAgeSeconds: number;
  clockSkewSeconds: number;
  /** The service's tracer when tracing is on (`trace-check.ts`). */
  tracer?: Tracer;
}

export type VerifySdJwtVcResult = { ok: true; credential: VerifiedCredential } | { ok: false; failure: CheckFailure };

/**
 * SD-JWT VC checks in table order: issuer signature, `typ` dc+sd-jwt and
 * disclosures (row 2), issuer trust (3), `iss` names the signer (4), the
 * anchor allows the `vct` (5), validity (6), key binding (7–10).
 * The presentation is split and each part parsed once: the issuer JWT
 * (`decodeJws`, its signature checked with node:crypto and the key the trust
 * cache holds), each disclosure decoded and hashed once (`decode-disclosures.ts`),
 * the claims rebuilt from those digests by `@sd-jwt/decode`'s unpackObj.
 * `@sd-jwt/sd-jwt-vc`'s `verify()` is not used: it fetches status lists and
 * reports every problem with one generic error.
 */
export async function verifySdJwtVc(options: VerifySdJwtVcOptions): Promise<VerifySdJwtVcResult> {
  const id = options.credentialQueryId;
  const fail = (row: CheckRow, code: CheckFailure['code'], message: string): VerifySdJwtVcResult => ({
    ok: false,
    failure: failure(row, code, message),
  });
  const separator = options.presentation.lastIndexOf('~');
  if (separator < 0)
    return fail(
      CheckRow.VP_TOKEN_SHAPE,
      'INVALID_VP_TOKEN',
      `The presentation for credential query "${id}" is not an SD-JWT.`,
    );
  const sdHashInput = options.presentation.slice(0, separator + 1);
  // `<issuer JWT>~<disclosure>~…~`: the last segment is the empty one after the final `~`.
  const segments = sdHashInput.split('~');
  const encodedDisclosures = segments.slice(1, -1);
  const kbJwt = options.presentation.slice(separator + 1) || undefined;

  let issuerJws: DecodedJws;
  try {
    issuerJws = decodeJws(segments[0]!);
  } catch {
    return fail(
      CheckRow.VP_TOKEN_SHAPE,
      'INVALID_VP_TOKEN',
      `The presentation for credential query "${id}" does not start with an issuer-signed JWT.`,
    );
  }
  const { header, payload } = issuerJws;

  if (header.typ !== 'dc+sd-jwt')
    return fail(
      CheckRow.SD_JWT_ISSUER_SIGNATURE,
      'ISSUER_SIGNATURE_INVALID',
      `The SD-JWT VC of credential query "${id}" has typ ${JSON.stringify(header.typ ?? null)}, not dc+sd-jwt.`,
    );
  let issuerKey: ReturnType<typeof findIssuerKey>;
  try {
    issuerKey = findIssuerKey({ header, iss: payload.iss });
  } catch (error) {
    issuerKey = { ok: false, message: describeError(error) };
  }
  if (!issuerKey.ok)
    return fail(
      CheckRow.ISSUER_TRUSTED,
      'ISSUER_NOT_TRUSTED',
      `The issuer of credential query "${id}" is not trusted: ${issuerKey.message}.`,
    );
  const { source } = issuerKey;
  const badSignature = await traceCheck(options.tracer, 'issuer_signature', () =>
    verifyDecodedJwsSignature(issuerJws, source.key).then(
      () => undefined,
      (error: unknown) =>
        failure(
          CheckRow.SD_JWT_ISSUER_SIGNATURE,
          'ISSUER_SIGNATURE_INVALID',
          `The issuer signature of credential query "${id}" is invalid (${describeError(error)}).`,
        ),
    ),
  );
  if (badSignature) return { ok: false, failure: badSignature };

  const sdAlg = payload._sd_alg ?? 'sha-256';
  const disclosureInvalid = (reason: string): CheckFailure =>
    failure(
      CheckRow.SD_JWT_ISSUER_SIGNATURE,
      'DISCLOSURE_INVALID',
      `The disclosures of credential query "${id}" are invalid: ${reason}.`,
    );
  if (typeof sdAlg !== 'string' || !SD_ALGS.includes(sdAlg))
    return { ok: false, failure: disclosureInvalid(`_sd_alg ${JSON.stringify(sdAlg)} is not supported`) };
  let claims: Record<string, unknown> = {};
  const badDisclosures = await traceCheck(options.tracer, 'disclosures', () => {
    try {
      const disclosures = decodeDisclosures(encodedDisclosures, sdAlg);
      const problem = checkDisclosures({ payload, disclosures });
      if (problem) return disclosureInvalid(problem);
      // Every disclosure is referenced exactly once (checked above): the map is keyed by distinct digests.
      const byDigest = Object.fromEntries(disclosures.map((entry) => [entry.digest, entry.disclosure]));
      const { _sd_alg: _unpackedAlg, ...signedClaims } = payload;
      claims = unpackObj(signedClaims, byDigest).unpackedObj as Record<string, unknown>;
      return undefined;
    } catch (error) {
      return disclosureInvalid(describeError(error));
    }
  });
  if (badDisclosures) return { ok: false, failure: badDisclosures };

  const trusted = await traceCheck(
    options.tracer,
    'issuer_trust',
    () =>
      checkIssuerTrust({ source, trust: options.trust, now: options.now, purpose: SD_JWT_VC_ISSUER }).catch(
        (error: unknown) => ({ ok: false as const, message: describeError(error) }),
      ),
    (result) => (result.ok ? 'ok' : 'ISSUER_NOT_TRUSTED'),
  );
  if (!trusted.ok)
    return fail(
      CheckRow.ISSUER_TRUSTED,
      'ISSUER_NOT_TRUSTED',
      `The issuer of credential query "${id}" is not trusted: ${trusted.message}.`,
    );
  const wrongIssuer = await traceCheck(options.tracer, 'issuer_identifier', () =>
    checkIssuerIdentifier({ credentialQueryId: id, iss: payload.iss, source }),
  );
  if (wrongIssuer) return { ok: false, failure: wrongIssuer };
  const wrongType = await traceCheck(options.tracer, 'credential_type', () =>
    checkCredentialType({
      credentialQueryId: id,
      credentialType: typeof payload.vct === 'string' ? payload.vct : undefined,
      issuerTrust: trusted.trust,
      trust: options.trust,
    }),
  );
  if (wrongType) return { ok: false, failure: wrongType };

  const window = await traceCheck(options.tracer, 'validity', () =>
    checkValidityWindow({
      credentialQueryId: id,
      notBefore: seconds(payload.nbf, 'nbf'),
      notAfter: seconds(payload.exp, 'exp'),
      now: options.now,
      clockSkewSeconds: options.clockSkewSeconds,
    }),
  );
  if (!window.ok) return { ok: false, failure: window.failure };

  const binding = await traceCheck(options.tracer, 'key_binding', () =>
    verifyKeyBinding({
      credentialQueryId: id,
      kbJwt,
      required: options.requireHolderBinding,
      issuerPayload: payload,
      sdHashInput,
      sdAlg,
      nonce: options.nonce,
      audience: options.audience,
      now: options.now,
      kbMaxAgeSeconds: options.kbMaxAgeSeconds,
      clockSkewSeconds: options.clockSkewSeconds,
    }),
  );
  if (!binding.ok) return binding;

  const { cnf: _cnf, _sd_alg: _alg, ...visible } = claims;
  return {
    ok: true,
    credential: {
      credentialQueryId: id,
      format: 'dc+sd-jwt',
      ...(typeof payload.vct === 'string' ? { vct: payload.vct } : {}),
      issuer: trusted.trust.name,
      issuerTrust: trusted.trust,
      claims: visible,
      holderBinding: binding.holderBinding,
      ...(window.validFrom ? { validFrom: window.validFrom } : {}),
      ...(window.validUntil ? { validUntil: window.validUntil } : {}),
      ...(payload.status !== undefined ? { status: payload.status } : {}),
      ...(binding.payload ? { keyBindingPayload: binding.payload } : {}),
    },
  };
}

/** A JWT NumericDate as a Date; a present but non-numeric value is kept as an error for the validity check. */
function seconds(value: unknown, name: string): Date | undefined | Error {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return new Error(`${name} is not a NumericDate`);
  return new Date(value * 1000);
}
