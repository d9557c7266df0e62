// Issuers whose certificates the test shapes: key type and size of each CA,
// the hash a CA signs with, extra extensions (SAN, extendedKeyUsage, unknown
// critical ones). Built directly with @peculiar/x509 and WebCrypto, sharing
// nothing with the service; the result is a TestIssuer, so issuePid/issueMdl
// and signStatusList of ./issuers.ts work with it.
import { randomBytes, webcrypto } from 'node:crypto';
import { exportJWK } from 'jose';
import { x509, type TestCertificate } from '../verification/support/pki.js';
import { ISSUER_HOST, type TestIssuer } from './issuers.js';

const DAY = 86_400_000;
const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A CA key: ECDSA P-256, or RSA (PKCS#1 v1.5) of a given size. */
export type CaKey = { kind: 'P-256' } | { kind: 'RSA'; modulusLength: number };

export interface CertificateSpec {
  subject: string;
  ca: boolean;
  /** Extensions after basicConstraints and keyUsage. */
  extensions?: x509.Extension[];
}

export interface SignedBy {
  certificate: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
  key: CaKey;
}

function validity() {
  return { notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() + 365 * DAY) };
}

function algorithmOf(key: CaKey, hash: 'SHA-1' | 'SHA-256') {
  return key.kind === 'RSA' ? { name: 'RSASSA-PKCS1-v1_5', hash } : { ...P256, hash };
}

async function generate(key: CaKey): Promise<webcrypto.CryptoKeyPair> {
  const algorithm =
    key.kind === 'RSA'
      ? {
          name: 'RSASSA-PKCS1-v1_5',
          hash: 'SHA-256',
          modulusLength: key.modulusLength,
          publicExponent: new Uint8Array([1, 0, 1]),
        }
      : P256;
  return (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

/**
 * WebCrypto's RSASSA-PKCS1-v1_5 signs with the hash bound to the key, not the
 * one named at signing: an RSA key is re-imported for `hash` (how a CA would
 * produce sha1WithRSAEncryption). ECDSA takes the hash at signing.
 */
async function keyForHash(
  privateKey: webcrypto.CryptoKey,
  key: CaKey,
  hash: 'SHA-1' | 'SHA-256',
): Promise<webcrypto.CryptoKey> {
  if (key.kind !== 'RSA' || hash === 'SHA-256') return privateKey;
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', privateKey);
  return webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash }, false, ['sign']);
}

function toTestCertificate(certificate: x509.X509Certificate, keys: webcrypto.CryptoKeyPair): TestCertificate {
  const der = new Uint8Array(certificate.rawData);
  return { certificate, keys, der, x5c: Buffer.from(der).toString('base64'), pem: certificate.toString('pem') };
}

/**
 * One certificate with the key `key`, issued by `issuer` (self-signed when
 * absent) with `issuer`'s key and the hash `hash`.
 */
export async function issueCertificate(
  spec: CertificateSpec & { key: CaKey; issuer?: SignedBy; hash?: 'SHA-1' | 'SHA-256' },
): Promise<SignedBy & { test: TestCertificate }> {
  const keys = await generate(spec.key);
  const signer = spec.issuer ?? { keys, key: spec.key, certificate: undefined };
  const hash = spec.hash ?? 'SHA-256';
  const signingKey = await keyForHash(signer.keys.privateKey, signer.key, hash);
  const usages = spec.ca
    ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
    : x509.KeyUsageFlags.digitalSignature;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: `01${randomBytes(8).toString('hex')}`,
    subject: spec.subject,
    issuer: spec.issuer ? spec.issuer.certificate.subject : spec.subject,
    ...validity(),
    signingAlgorithm: algorithmOf(signer.key, hash),
    publicKey: keys.publicKey,
    signingKey,
    extensions: [
      new x509.BasicConstraintsExtension(spec.ca, spec.ca ? 1 : undefined, true),
      new x509.KeyUsagesExtension(usages, true),
      ...(spec.extensions ?? []),
    ],
  });
  return { certificate, keys, key: spec.key, test: toTestCertificate(certificate, keys) };
}

export interface CustomIssuerOptions {
  /** Key of the intermediate CA between the root (the trust anchor, P-256) and the leaf; no intermediate when absent. */
  intermediateKey?: CaKey;
  /** Hash the leaf's issuer signs the leaf with; default SHA-256. */
  leafSignatureHash?: 'SHA-1' | 'SHA-256';
  /** Extensions of the leaf besides basicConstraints, keyUsage and (default) a SAN dNSName of ISSUER_HOST. */
  leafExtensions?: x509.Extension[];
  /** Replaces the default SAN (dNSName ISSUER_HOST) of the leaf; [] for none. */
  leafSubjectAltNames?: Array<{ type: 'dns' | 'url'; value: string }>;
  name?: string;
}

/**
 * A root CA (P-256, the trust anchor), an optional intermediate, and an
 * ES256 leaf that signs credentials: a TestIssuer whose `leaf.x5c` is the
 * whole chain below the root (leaf first) through `x5c`.
 */
export async function createCustomIssuer(options: CustomIssuerOptions = {}): Promise<TestIssuer & { x5c: string[] }> {
  const name = options.name ?? `Custom Issuer ${randomBytes(3).toString('hex')}`;
  const root = await issueCertificate({ subject: `CN=${name} Root,O=Tessera Tests`, ca: true, key: { kind: 'P-256' } });
  const intermediate = options.intermediateKey
    ? await issueCertificate({
        subject: `CN=${name} Intermediate,O=Tessera Tests`,
        ca: true,
        key: options.intermediateKey,
        issuer: root,
      })
    : undefined;
  const names = options.leafSubjectAltNames ?? [{ type: 'dns' as const, value: ISSUER_HOST }];
  const leaf = await issueCertificate({
    subject: `CN=${name},O=Tessera Tests`,
    ca: false,
    key: { kind: 'P-256' },
    issuer: intermediate ?? root,
    hash: options.leafSignatureHash ?? 'SHA-256',
    extensions: [
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      ...(options.leafExtensions ?? []),
    ],
  });
  return {
    ca: root.test,
    leaf: leaf.test,
    leafPrivateJwk: await exportJWK(leaf.keys.privateKey),
    x5c: [leaf.test.x5c, ...(intermediate ? [intermediate.test.x5c] : [])],
  };
}

export { x509 };
