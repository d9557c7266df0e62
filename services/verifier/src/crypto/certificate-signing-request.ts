import type { JWK } from 'jose';
import type { AccessCertificateRequest } from '../domain/access-certificate-subject.js';
import type { KeyType } from './signing-key.js';
import { ECDSA_P256, ED25519, subtle, x509, type WebCryptoKey } from './x509.js';

/** ETSI EN 319 412-1 organizationIdentifier (X.520 id-at-organizationIdentifier). */
export const ORGANIZATION_IDENTIFIER_OID = '2.5.4.97';

export interface CreateCertificateSigningRequestOptions extends AccessCertificateRequest {
  keyType: KeyType;
  /** The key pair the request is for, as `generateSigningKeyPair` makes it; the private key signs the request (proof of possession). */
  publicJwk: JWK;
  privateJwk: JWK;
}

/**
 * A PKCS#10 certification request (RFC 2986) for an access certificate, as PEM: the subject of
 * `checkAccessCertificateRequest` (C, O, organizationIdentifier, CN — one attribute per RDN, as the
 * certificates this service issues have), the requested SANs in an extensionRequest attribute, signed
 * with the key itself (ES256 over P-256, or Ed25519). The CA chooses key usage, policies and
 * validity; the request asks for names only. The private key never leaves the caller.
 */
export async function createCertificateSigningRequest(
  options: CreateCertificateSigningRequestOptions,
): Promise<string> {
  const algorithm = options.keyType === 'P256' ? ECDSA_P256 : ED25519;
  const keys = {
    // The public key is exported into the request's subjectPublicKeyInfo; the private one only signs.
    publicKey: await importJwk(options.publicJwk, algorithm, ['verify'], true),
    privateKey: await importJwk(options.privateJwk, algorithm, ['sign'], false),
  };
  const sans: x509.JsonGeneralName[] = [
    ...(options.sanDns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(options.sanUri ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subjectName(options.subject),
    keys,
    signingAlgorithm: algorithm,
    extensions: sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : [],
  });
  return request.toString('pem');
}

function subjectName(subject: AccessCertificateRequest['subject']): x509.JsonName {
  return [
    { C: [subject.countryName] },
    { O: [subject.organizationName] },
    ...(subject.organizationIdentifier ? [{ [ORGANIZATION_IDENTIFIER_OID]: [subject.organizationIdentifier] }] : []),
    { CN: [subject.commonName] },
  ];
}

async function importJwk(
  jwk: JWK,
  algorithm: typeof ECDSA_P256 | typeof ED25519,
  usages: Array<'sign' | 'verify'>,
  extractable: boolean,
): Promise<WebCryptoKey> {
  const { kty, crv, x, y, d } = jwk;
  return subtle.importKey(
    'jwk',
    { kty, crv, x, ...(y ? { y } : {}), ...(d ? { d } : {}) },
    algorithm,
    extractable,
    usages,
  );
}
