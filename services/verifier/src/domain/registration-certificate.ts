import type { ErrorDetail } from '@tessera/contracts';
import { JADES_ALGORITHMS_WITH_EDDSA } from './jades-algorithms.js';
import type { RegistrationCertificateClaims } from './registration-certificate-claims.js';
import { readRegistrationCertificateRcRp } from './registration-certificate-rc-rp.js';
import { readRegistrationCertificateV111 } from './registration-certificate-v1-1-1.js';
import { readRegistrationCertificateV121 } from './registration-certificate-v1-2-1.js';

/** `typ` of a WRPRC in JWT form (ETSI TS 119 475 Table 5), and of the earlier BMI form. */
export const REGISTRATION_CERTIFICATE_TYPES = ['rc-wrp+jwt', 'rc-rp+jwt'] as const;

/** The algorithms any form allows: the signature is checked with this list before the form is known. */
export const REGISTRATION_CERTIFICATE_ALGORITHMS: string[] = [...JADES_ALGORITHMS_WITH_EDDSA];

export type ReadRegistrationCertificateResult =
  | { ok: true; claims: RegistrationCertificateClaims }
  | { ok: false; reason: 'INVALID_HEADER' | 'INVALID_PAYLOAD'; message: string; details: ErrorDetail[] };

/**
 * Reads a registration certificate's (already authenticated) header and payload by the form they
 * declare: `rc-rp+jwt` is the BMI form; `rc-wrp+jwt` is TS 119 475, V1.1.1 when `sub` is an object
 * (that version's legal or natural person structure), V1.2.1 otherwise (a semantics identifier).
 * Each form's schema and rules apply (`registration-certificate-v1-2-1.ts`, `…-v1-1-1.ts`, `…-rc-rp.ts`).
 */
export function readRegistrationCertificate(header: unknown, payload: unknown): ReadRegistrationCertificateResult {
  const typ = isObject(header) ? header.typ : undefined;
  const read =
    typ === 'rc-rp+jwt'
      ? { name: 'the BMI rc-rp+jwt form', result: readRegistrationCertificateRcRp(header, payload) }
      : isObject(payload) && isObject(payload.sub)
        ? { name: 'ETSI TS 119 475 V1.1.1', result: readRegistrationCertificateV111(header, payload) }
        : { name: 'ETSI TS 119 475 V1.2.1', result: readRegistrationCertificateV121(header, payload) };
  if (read.result.ok) return read.result;
  const { part, details } = read.result;
  return {
    ok: false,
    reason: part === 'header' ? 'INVALID_HEADER' : 'INVALID_PAYLOAD',
    message: `The registration certificate's ${part} is not valid for ${read.name}: ${details[0]?.message ?? 'see details'}.`,
    details,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
