import type { webcrypto } from 'node:crypto';
import { SignJWT } from 'jose';
import { issue, makeRoot, type Issued } from './pki.js';

// Registration certificates (WRPRC, ETSI TS 119 475) as a registrar would issue them, built with jose
// and @peculiar/x509 (support/pki.ts) and nothing of the service's: the registrar's CA and sealing
// certificate, payloads of each form the verifier reads, and the broken variants it must refuse.

export type RegistrationCertificateVersion = '1.2.1' | '1.1.1' | 'rc-rp';

export interface TestRegistrar {
  root: Issued;
  /** The sealing certificate that signs registration certificates (not a CA, digitalSignature). */
  signer: Issued;
  /** The `x5c` header: the signer's DER in base64, the root left out (HAIP: the anchor is not sent). */
  x5c: string[];
}

export async function createTestRegistrar(
  name = 'Test Registrar',
  options: { signerNotBefore?: Date; signerNotAfter?: Date } = {},
): Promise<TestRegistrar> {
  const root = await makeRoot(`${name} Root CA`);
  const signer = await issue({
    issuer: root,
    name: `${name} Registration Certificates`,
    ca: false,
    ...(options.signerNotBefore ? { notBefore: options.signerNotBefore } : {}),
    ...(options.signerNotAfter ? { notAfter: options.signerNotAfter } : {}),
  });
  return { root, signer, x5c: [Buffer.from(signer.certificate.rawData).toString('base64')] };
}

/** What a relying party registered: the generator renders it in each version's shape. */
export interface TestRegisteredCredential {
  format: 'dc+sd-jwt' | 'mso_mdoc';
  /** `vct` (SD-JWT VC) or doctype (mdoc). */
  type: string;
  /** Claim paths; absent: the certificate names no claims. V1.1.1 keeps the last segment only (its paths are strings). */
  claims?: string[][];
}

export const PID_SD_JWT: TestRegisteredCredential = {
  format: 'dc+sd-jwt',
  type: 'urn:eudi:pid:1',
  claims: [['given_name'], ['family_name'], ['address']],
};
export const PID_MDOC: TestRegisteredCredential = {
  format: 'mso_mdoc',
  type: 'eu.europa.ec.eudi.pid.1',
  claims: [['eu.europa.ec.eudi.pid.1', 'age_over_18']],
};

export interface TestPayloadOptions {
  /** The relying party's EN 319 412-1 identifier (`sub`). */
  relyingPartyIdentifier?: string;
  credentials?: TestRegisteredCredential[];
  /** Seconds since the epoch; default now. */
  iat?: number;
  /** Seconds since the epoch; default iat + 180 days; null: no exp. */
  exp?: number | null;
  intendedUseId?: string;
}

const DAY_SECONDS = 86_400;

/** A payload valid for `version`, in the shape a registrar of that version issues. */
export function registrationCertificatePayload(
  version: RegistrationCertificateVersion,
  options: TestPayloadOptions = {},
): Record<string, unknown> {
  const sub = options.relyingPartyIdentifier ?? 'VATDE-123456789';
  const credentials = options.credentials ?? [PID_SD_JWT, PID_MDOC];
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  const exp = options.exp === undefined ? iat + 180 * DAY_SECONDS : options.exp;
  const times = { iat, ...(exp === null ? {} : { exp }) };
  const purpose = [
    { lang: 'en', value: 'To check your age before selling alcohol' },
    { lang: 'de', value: 'Um vor dem Verkauf von Alkohol Ihr Alter zu prüfen' },
  ];
  if (version === '1.2.1')
    return {
      name: 'Example Shop',
      sub_ln: 'Example Shop GmbH',
      sub,
      country: 'DE',
      registry_uri: 'https://registry.example/api/wrp/VATDE-123456789',
      srv_description: [[{ lang: 'en', value: 'An online shop' }]],
      entitlements: ['https://uri.etsi.org/19475/Entitlement/Service_Provider'],
      privacy_policy: 'https://shop.example/privacy',
      info_uri: 'https://shop.example',
      support_uri: 'https://shop.example/support',
      supervisory_authority: { email: 'dpa@dpa.example', uri: 'https://dpa.example/report' },
      policy_id: ['0.4.0.19475.3.1'],
      certificate_policy: 'https://registry.example/certificate-policy',
      status: { status_list: { idx: 42, uri: 'https://registry.example/status-lists/1' } },
      purpose,
      credentials: credentials.map((credential) => ({
        format: credential.format,
        meta:
          credential.format === 'dc+sd-jwt' ? { vct_values: [credential.type] } : { doctype_value: credential.type },
        ...(credential.claims ? { claim: credential.claims.map((path) => ({ path })) } : {}),
      })),
      ...(options.intendedUseId ? { intended_use_id: options.intendedUseId } : {}),
      ...times,
    };
  if (version === '1.1.1')
    return {
      name: 'Example Shop',
      sub: {
        legal_name: ['Example Shop GmbH'],
        id: [{ type: 'http://data.europa.eu/eudi/id/VATIN', identifier: sub }],
      },
      country: 'DE',
      registry_uri: 'https://registry.example/api',
      service: [{ lang: 'en', value: 'An online shop' }],
      entitlements: ['https://uri.etsi.org/19475/Entitlement/Service_Provider'],
      privacy_policy: [
        { type: 'http://data.europa.eu/eudi/policy/privacy-policy', policyURI: 'https://shop.example/privacy' },
      ],
      info_uri: ['https://shop.example'],
      dpa: { country: 'DE', email: ['dpa@dpa.example'], phone: [], uri: ['https://dpa.example/report'] },
      policy_id: ['0.4.0.19475.3.1'],
      certificate_policy: 'https://registry.example/certificate-policy',
      status: { status_list: { idx: 7, uri: 'https://registry.example/status-lists/1' } },
      purpose,
      credentials: credentials.map((credential) => ({
        format: credential.format,
        meta: credential.type,
        ...(credential.claims ? { claim: credential.claims.map((path) => ({ path: path[path.length - 1]! })) } : {}),
      })),
      ...(options.intendedUseId ? { intended_use_id: options.intendedUseId } : {}),
      ...times,
    };
  return {
    sub,
    privacy_policy: 'https://shop.example/privacy',
    purpose: purpose.map(({ lang, value }) => ({ lang, name: value })),
    credentials: credentials.map((credential, index) => ({
      id: `registered-${index}`,
      format: credential.format,
      meta: credential.format === 'dc+sd-jwt' ? { vct_values: [credential.type] } : { doctype_value: credential.type },
      ...(credential.claims ? { claims: credential.claims.map((path) => ({ path })) } : {}),
    })),
    ...times,
  };
}

/** The JOSE header a registrar of `version` puts on the certificate. */
export function registrationCertificateHeader(
  version: RegistrationCertificateVersion,
  registrar: TestRegistrar,
  alg = 'ES256',
): Record<string, unknown> {
  if (version === 'rc-rp') return { typ: 'rc-rp+jwt', alg, x5c: registrar.x5c };
  if (version === '1.1.1') return { typ: 'rc-wrp+jwt', alg, x5c: registrar.x5c, b64: 'true', cty: 'b64' };
  return { typ: 'rc-wrp+jwt', alg, x5c: registrar.x5c, iat: Math.floor(Date.now() / 1000) };
}

export interface SignOptions {
  registrar: TestRegistrar;
  version?: RegistrationCertificateVersion;
  payload?: Record<string, unknown>;
  /** Replaces members of the default header (undefined removes one). */
  header?: Record<string, unknown>;
  /** Signs with this key instead of the registrar's (a forged certificate). */
  signingKey?: webcrypto.CryptoKey;
}

/** A signed registration certificate: compact JWS, the registrar's sealing key, `x5c` in the header. */
export async function signRegistrationCertificate(options: SignOptions): Promise<string> {
  const version = options.version ?? '1.2.1';
  const header = { ...registrationCertificateHeader(version, options.registrar), ...options.header };
  for (const [key, value] of Object.entries(header)) if (value === undefined) delete header[key];
  return new SignJWT(options.payload ?? registrationCertificatePayload(version))
    .setProtectedHeader(header as { alg: string })
    .sign(options.signingKey ?? options.registrar.signer.keys.privateKey);
}

/** A compact JWS whose parts are the given bytes, unsigned (for malformed variants). */
export function compactOf(header: unknown, payload: string, signature = 'c2ln'): string {
  return `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payload).toString('base64url')}.${signature}`;
}

/** The same JWS with one payload member changed after signing (the signature no longer matches). */
export function tamperedPayload(jwt: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = jwt.split('.');
  const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
  change(decoded);
  return `${header}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
}

export { DAY_SECONDS };
