// An SD-JWT VC issuer and wallet written directly with jose and node:crypto
// (RFC 9901, SD-JWT VC): independent of @sd-jwt/* and of the code under test.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { exportJWK, SignJWT, type JWK } from 'jose';

export interface IssueSdJwtVcOptions {
  signingKey: webcrypto.CryptoKey;
  /** Issuer key reference: an x5c chain (base64 DER, leaf first) or a DID URL kid. */
  x5c?: string[];
  kid?: string;
  /** Plain claims, always visible. */
  claims?: Record<string, unknown>;
  /** Selectively disclosable top-level claims. */
  disclosable?: Record<string, unknown>;
  /** Holder public key for cnf.jwk; omitted when absent. */
  holderPublicJwk?: JWK;
  vct?: string;
  typ?: string;
}

export interface IssuedSdJwtVc {
  jwt: string;
  disclosures: Record<string, string>;
}

export async function issueSdJwtVc(options: IssueSdJwtVcOptions): Promise<IssuedSdJwtVc> {
  const disclosures: Record<string, string> = {};
  const digests: string[] = [];
  for (const [name, value] of Object.entries(options.disclosable ?? {})) {
    const encoded = Buffer.from(JSON.stringify([randomBytes(16).toString('base64url'), name, value]), 'utf8').toString(
      'base64url',
    );
    disclosures[name] = encoded;
    digests.push(sha256(encoded));
  }
  const payload: Record<string, unknown> = {
    vct: options.vct ?? 'https://credentials.example/identity',
    ...options.claims,
    ...(digests.length > 0 ? { _sd: digests.sort(), _sd_alg: 'sha-256' } : {}),
    ...(options.holderPublicJwk ? { cnf: { jwk: options.holderPublicJwk } } : {}),
  };
  const header: Record<string, unknown> = { alg: 'ES256', typ: options.typ ?? 'dc+sd-jwt' };
  if (options.x5c) header.x5c = options.x5c;
  if (options.kid) header.kid = options.kid;
  const jwt = await new SignJWT(payload).setProtectedHeader(header as never).sign(options.signingKey);
  return { jwt, disclosures };
}

export interface PresentSdJwtVcOptions {
  issued: IssuedSdJwtVc;
  /** Names of the disclosures to reveal (default all). */
  reveal?: string[];
  /** Raw disclosure strings appended as they are (for tampering tests). */
  extraDisclosures?: string[];
  keyBinding?: {
    holderKey: webcrypto.CryptoKey;
    nonce: string;
    aud: string;
    iat: number;
    typ?: string;
    transactionDataHashes?: string[];
    sdHash?: string;
  };
}

export async function presentSdJwtVc(options: PresentSdJwtVcOptions): Promise<string> {
  const names = options.reveal ?? Object.keys(options.issued.disclosures);
  const selected = [...names.map((name) => options.issued.disclosures[name]!), ...(options.extraDisclosures ?? [])];
  const withoutKb = `${[options.issued.jwt, ...selected].join('~')}~`;
  const kb = options.keyBinding;
  if (!kb) return withoutKb;
  const payload: Record<string, unknown> = {
    nonce: kb.nonce,
    aud: kb.aud,
    iat: kb.iat,
    sd_hash: kb.sdHash ?? sha256(withoutKb),
  };
  if (kb.transactionDataHashes) {
    payload.transaction_data_hashes = kb.transactionDataHashes;
    payload.transaction_data_hashes_alg = 'sha-256';
  }
  const kbJwt = await new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', typ: kb.typ ?? 'kb+jwt' })
    .sign(kb.holderKey);
  return `${withoutKb}${kbJwt}`;
}

export async function generateEs256(): Promise<{
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
}> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const publicJwk = await exportJWK(keys.publicKey);
  const privateJwk = await exportJWK(keys.privateKey);
  return { privateKey: keys.privateKey, publicKey: keys.publicKey, publicJwk, privateJwk };
}

export function didJwk(publicJwk: JWK): string {
  const { kty, crv, x, y } = publicJwk;
  return `did:jwk:${Buffer.from(JSON.stringify({ kty, crv, x, y }), 'utf8').toString('base64url')}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}
