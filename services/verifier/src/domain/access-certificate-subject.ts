import type { ErrorDetail } from '@tessera/contracts';

/**
 * The subject an organisation asks its access certificate (WRPAC, ETSI TS 119 411-8) to carry, and
 * the subject alternative names it asks for. ETSI TS 119 411-8 profiles the subject of a legal
 * person with ETSI EN 319 412-3: commonName (the trade or service name a wallet shows),
 * organizationName (the legal name), organizationIdentifier (EN 319 412-1 semantics identifier, e.g.
 * `VATDE-123456789`, `LEIXG-529900T8BM49AURSDO55`, `NTRNL-12345678`) and countryName. A registration
 * certificate's relying-party identifier (`sub`) must equal that organizationIdentifier.
 */
export interface AccessCertificateSubject {
  commonName: string;
  organizationName: string;
  /** EN 319 412-1 semantics identifier; absent when the CA assigns or derives one. */
  organizationIdentifier?: string;
  /** ISO 3166-1 alpha-2, upper case. */
  countryName: string;
}

export interface AccessCertificateRequest {
  subject: AccessCertificateSubject;
  /** dNSName SANs: the `x509_san_dns` client identifier needs one naming the service's host. */
  sanDns?: string[];
  /** uniformResourceIdentifier SANs: ETSI TS 119 411-8 asks for a contact (e.g. the support page) in the SAN. */
  sanUri?: string[];
}

/** X.520 upper bounds (RFC 5280 Appendix A): ub-common-name and ub-organization-name are 64. */
const MAX_NAME_LENGTH = 64;
const MAX_SANS = 10;

/**
 * EN 319 412-1 §5.1.4 semantics identifier of a legal person: a three-letter identity type (`VAT`,
 * `NTR`, `PSD`, `LEI`, `EOR`, `EXC`, or another registered by the standard), a two-letter country
 * code (ISO 3166-1; `EL` for Greece, `XG` for the global LEI, `EU` for EU-wide schemes), `-` and the
 * identifier; or a national scheme: the country code, `:` and the identifier.
 */
const SEMANTICS_IDENTIFIER = /^(?:[A-Z]{3}[A-Z]{2}-[\x21-\x7e]+|[A-Z]{2}:[\x21-\x7e]+)$/;

export interface SemanticsIdentifier {
  /** `VAT`, `NTR`, `LEI`, …; absent for a national scheme (`DE:…`). */
  type?: string;
  country: string;
  value: string;
}

/** The parts of an EN 319 412-1 semantics identifier, or undefined when it is not one. */
export function parseSemanticsIdentifier(identifier: string): SemanticsIdentifier | undefined {
  if (!SEMANTICS_IDENTIFIER.test(identifier)) return undefined;
  if (identifier[2] === ':') return { country: identifier.slice(0, 2), value: identifier.slice(3) };
  return { type: identifier.slice(0, 3), country: identifier.slice(3, 5), value: identifier.slice(6) };
}

/**
 * Every problem of a CSR request, each with the JSON Pointer of its field in the request body
 * (`/subject/commonName`, `/sanDns/0`); an empty list means the request can be turned into a CSR.
 */
export function checkAccessCertificateRequest(request: AccessCertificateRequest): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const add = (path: string, message: string) => problems.push({ path, message: `${path}: ${message}` });
  const { subject } = request;
  for (const field of ['commonName', 'organizationName'] as const) {
    const value = subject[field];
    if (value.trim().length === 0) add(`/subject/${field}`, 'must not be blank');
    else if (value.length > MAX_NAME_LENGTH) add(`/subject/${field}`, `must be at most ${MAX_NAME_LENGTH} characters`);
  }
  if (!/^[A-Z]{2}$/.test(subject.countryName))
    add('/subject/countryName', 'must be an ISO 3166-1 alpha-2 country code in upper case, e.g. "DE"');
  if (subject.organizationIdentifier !== undefined) {
    if (subject.organizationIdentifier.length > MAX_NAME_LENGTH)
      add('/subject/organizationIdentifier', `must be at most ${MAX_NAME_LENGTH} characters`);
    else if (!parseSemanticsIdentifier(subject.organizationIdentifier))
      add(
        '/subject/organizationIdentifier',
        'must be an ETSI EN 319 412-1 semantics identifier: type, country, "-" and the identifier (e.g. "VATDE-123456789", "LEIXG-529900T8BM49AURSDO55") or country, ":" and a national identifier',
      );
  }
  const sanDns = request.sanDns ?? [];
  if (sanDns.length > MAX_SANS) add('/sanDns', `must hold at most ${MAX_SANS} names`);
  sanDns.forEach((name, index) => {
    if (!isDnsName(name)) add(`/sanDns/${index}`, 'must be a DNS host name in lower case, e.g. "verifier.example.com"');
  });
  const sanUri = request.sanUri ?? [];
  if (sanUri.length > MAX_SANS) add('/sanUri', `must hold at most ${MAX_SANS} URIs`);
  sanUri.forEach((uri, index) => {
    if (!isAbsoluteUri(uri))
      add(`/sanUri/${index}`, 'must be an absolute URI, e.g. "https://verifier.example.com/support"');
  });
  return problems;
}

/** RFC 1035 host name (RFC 5280 §4.2.1.6: a dNSName is in "preferred name syntax"), lower case, no wildcard. */
function isDnsName(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

function isAbsoluteUri(uri: string): boolean {
  if (uri.length > 2048 || /\s/.test(uri)) return false;
  try {
    return new URL(uri).protocol.length > 1;
  } catch {
    return false;
  }
}
