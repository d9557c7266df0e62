import { compactVerify, decodeProtectedHeader } from 'jose';
import type { ErrorDetail } from '@tessera/contracts';
import { validateCertificateChain } from '../crypto/certificate-chain.js';
import { ANY_EKU, type CertificatePurpose } from '../crypto/certificate-purposes.js';
import { certificatePublicKey, parseCertificateDer } from '../crypto/parsed-certificates.js';
import type { ValidatedChains } from '../crypto/validated-chains.js';
import type { x509 } from '../crypto/x509.js';
import type { RegisteredIntendedUse } from '../domain/registered-intended-use.js';
import type { RegisteredRelyingParty, RegistrationCertificateForm } from '../domain/registration-certificate-claims.js';
import {
  readRegistrationCertificate,
  REGISTRATION_CERTIFICATE_ALGORITHMS,
  REGISTRATION_CERTIFICATE_TYPES,
} from '../domain/registration-certificate.js';

/** RFC 9336 id-kp-documentSigning: a registrar's sealing certificate may be restricted to it. */
export const DOCUMENT_SIGNING_EKU = '1.3.6.1.5.5.7.3.36';

/**
 * The registrar's signing certificate (a WRPRC provider's seal, ETSI TS 119 475 clause 6): no EKU
 * is defined for it. Without extendedKeyUsage it is judged by keyUsage alone; with one, it must
 * allow document signing or any use.
 */
export const REGISTRATION_CERTIFICATE_SIGNER: CertificatePurpose = {
  name: 'registration certificate signer',
  extendedKeyUsages: [DOCUMENT_SIGNING_EKU, ANY_EKU],
};

/** Why a registration certificate is refused; the use case turns each into 400 REGISTRATION_CERTIFICATE_INVALID. */
export type RegistrationCertificateRefusal =
  /** Not a compact JWS, or its header or payload is not JSON. */
  | 'MALFORMED'
  /** `typ` is neither `rc-wrp+jwt` nor `rc-rp+jwt`. */
  | 'UNSUPPORTED_TYPE'
  /** The header lacks an `x5c` chain, or fails its form's schema. */
  | 'INVALID_HEADER'
  /** The `x5c` chain does not validate to a registrar anchor (the one chain rule). */
  | 'UNTRUSTED'
  /** The JWS signature is not the `x5c` leaf's, or uses an algorithm no form allows. */
  | 'SIGNATURE_INVALID'
  /** The payload fails its form's schema or rules. */
  | 'INVALID_PAYLOAD'
  | 'NOT_YET_VALID'
  | 'EXPIRED'
  /** Its relying-party identifier is not the one the access certificate carries. */
  | 'RELYING_PARTY_MISMATCH';

export interface VerifiedRegistrationCertificate {
  form: RegistrationCertificateForm;
  registrar: {
    /** The signing certificate's subject DN. */
    subject: string;
    /** Its organizationName, else its commonName. */
    name: string;
    /** The registrar anchor the chain validated to. */
    anchorSubject: string;
  };
  relyingParty: RegisteredRelyingParty;
  intermediary?: { identifier: string; name?: string };
  /** One per certificate today (a WRPRC registers one intended use); an array so that several can be combined. */
  intendedUses: RegisteredIntendedUse[];
  /** `iat` (or a later `nbf`). */
  notBefore: Date;
  /** `exp`, or the end of the signing chain when that comes first or `exp` is absent (nothing validates it after). */
  notAfter: Date;
}

export type VerifyRegistrationCertificateResult =
  | { ok: true; registrationCertificate: VerifiedRegistrationCertificate }
  | { ok: false; reason: RegistrationCertificateRefusal; message: string; details: ErrorDetail[] };

export interface VerifyRegistrationCertificateOptions {
  /** The certificate as uploaded: a compact JWS. */
  jwt: string;
  /** Registrar trust anchors (CA certificates): the platform's and the organisation's. */
  anchors: x509.X509Certificate[];
  /** The identifier of the access certificate the verifier's requests are signed with (`accessCertificateIdentifier`); undefined when it carries none. */
  relyingPartyIdentifier: string | undefined;
  now: Date;
  /** Tolerance on `iat`, `nbf` and `exp` (CLOCK_SKEW_SECONDS). */
  clockSkewSeconds?: number;
  cache?: ValidatedChains;
}

const MAX_JWT_LENGTH = 64 * 1024;

/**
 * Checks a registration certificate (WRPRC, ETSI TS 119 475) before it is stored, in this order —
 * the first failure is the refusal: a compact JWS with a JSON header (`MALFORMED`); `typ`
 * `rc-wrp+jwt` or `rc-rp+jwt` (`UNSUPPORTED_TYPE`); an `x5c` chain (`INVALID_HEADER`) that validates
 * to a registrar anchor by the service's one chain rule (`UNTRUSTED`); the signature by the chain's
 * leaf with an algorithm a form allows (`SIGNATURE_INVALID`); header and payload valid for the form
 * and version they declare (`INVALID_HEADER`, `INVALID_PAYLOAD`); `iat`/`nbf` not in the future and
 * `exp` not past, with the clock skew (`NOT_YET_VALID`, `EXPIRED`); the relying-party identifier
 * (or the intermediary's, when one acts) equal to the access certificate's (`RELYING_PARTY_MISMATCH`).
 * Pure: the anchors, the identifier and the time are given.
 */
export async function verifyRegistrationCertificate(
  options: VerifyRegistrationCertificateOptions,
): Promise<VerifyRegistrationCertificateResult> {
  const skewMs = (options.clockSkewSeconds ?? 60) * 1000;
  const jwt = options.jwt.trim();
  if (jwt.length > MAX_JWT_LENGTH)
    return refused('MALFORMED', `The registration certificate is longer than ${MAX_JWT_LENGTH} characters.`);
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(jwt))
    return refused('MALFORMED', 'The registration certificate is not a JWT in compact serialization.');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  } catch {
    return refused('MALFORMED', "The registration certificate's header is not base64url-encoded JSON.");
  }
  if (!(REGISTRATION_CERTIFICATE_TYPES as readonly unknown[]).includes(header.typ))
    return refused(
      'UNSUPPORTED_TYPE',
      `The registration certificate's typ is ${JSON.stringify(header.typ ?? null)}: it must be "rc-wrp+jwt" (ETSI TS 119 475) or "rc-rp+jwt".`,
      [{ path: '/header/typ', message: '/header/typ: must be "rc-wrp+jwt" or "rc-rp+jwt"' }],
    );
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((entry) => typeof entry === 'string'))
    return refused('INVALID_HEADER', 'The registration certificate has no x5c certificate chain in its header.', [
      { path: '/header/x5c', message: '/header/x5c: must be a non-empty array of base64 DER certificates' },
    ]);

  let chain: x509.X509Certificate[];
  try {
    chain = (x5c as string[]).map((entry) => parseCertificateDer(entry));
  } catch {
    return refused('INVALID_HEADER', 'A certificate of the x5c chain cannot be parsed.', [
      { path: '/header/x5c', message: '/header/x5c: holds a certificate that is not base64 DER' },
    ]);
  }
  const trusted = await validateCertificateChain({
    chain,
    anchors: options.anchors,
    now: options.now,
    purpose: REGISTRATION_CERTIFICATE_SIGNER,
    ...(options.cache ? { cache: options.cache } : {}),
  });
  if (!trusted.ok)
    return refused(
      'UNTRUSTED',
      `The registration certificate is not signed by a trusted registrar: ${trusted.message}.`,
      trusted.problems.map((problem) => ({ path: '/header/x5c', message: `/header/x5c: ${problem}` })),
    );

  let payloadBytes: Uint8Array;
  try {
    ({ payload: payloadBytes } = await compactVerify(jwt, certificatePublicKey(x5c[0] as string), {
      algorithms: REGISTRATION_CERTIFICATE_ALGORITHMS,
    }));
  } catch {
    return refused(
      'SIGNATURE_INVALID',
      `The registration certificate's signature does not verify with its x5c certificate (alg ${JSON.stringify(header.alg ?? null)}).`,
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes));
  } catch {
    return refused('MALFORMED', "The registration certificate's payload is not JSON.");
  }

  const read = readRegistrationCertificate(header, payload);
  if (!read.ok) return refused(read.reason, read.message, read.details);
  const { claims } = read;

  const now = options.now.getTime();
  const starts = Math.max(claims.issuedAt ?? 0, claims.notBefore ?? 0) * 1000;
  if (starts > now + skewMs)
    return refused(
      'NOT_YET_VALID',
      `The registration certificate is not valid before ${new Date(starts).toISOString()}.`,
    );
  if (claims.expiresAt !== undefined && claims.expiresAt * 1000 + skewMs < now)
    return refused(
      'EXPIRED',
      `The registration certificate expired at ${new Date(claims.expiresAt * 1000).toISOString()}.`,
    );

  if (
    options.relyingPartyIdentifier === undefined ||
    !claims.bindingIdentifiers.includes(options.relyingPartyIdentifier)
  )
    return refused(
      'RELYING_PARTY_MISMATCH',
      options.relyingPartyIdentifier === undefined
        ? `The registration certificate is for "${claims.bindingIdentifiers[0]}", but the access certificate in force carries no organizationIdentifier.`
        : `The registration certificate is for "${claims.bindingIdentifiers[0]}", but the access certificate in force carries "${options.relyingPartyIdentifier}".`,
      [mismatchDetail(claims.bindingPointer)],
    );

  const leaf = trusted.leaf;
  const chainEnd = Math.min(...[...trusted.path, trusted.anchor].map((certificate) => certificate.notAfter.getTime()));
  const ends = Math.min(claims.expiresAt !== undefined ? claims.expiresAt * 1000 : Infinity, chainEnd);
  return {
    ok: true,
    registrationCertificate: {
      form: claims.form,
      registrar: {
        subject: leaf.subject,
        name: leaf.subjectName.getField('O')[0] ?? leaf.subjectName.getField('CN')[0] ?? leaf.subject,
        anchorSubject: trusted.anchor.subject,
      },
      relyingParty: claims.relyingParty,
      ...(claims.intermediary ? { intermediary: claims.intermediary } : {}),
      intendedUses: [claims.intendedUse],
      notBefore: new Date(starts || leaf.notBefore.getTime()),
      notAfter: new Date(ends),
    },
  };
}

function mismatchDetail(path: string): ErrorDetail {
  return { path, message: `${path}: is not the identifier of the access certificate the requests are signed with` };
}

function refused(
  reason: RegistrationCertificateRefusal,
  message: string,
  details: ErrorDetail[] = [],
): VerifyRegistrationCertificateResult {
  return { ok: false, reason, message, details };
}
