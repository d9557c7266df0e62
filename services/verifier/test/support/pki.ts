import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto);

/** A test PKI built directly with @peculiar/x509, sharing no code with the service. */
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

type Keys = webcrypto.CryptoKeyPair;
export interface Issued {
  certificate: x509.X509Certificate;
  keys: Keys;
}

const serial = () =>
  randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');

export async function makeRoot(name = 'Org Root CA'): Promise<Issued> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as Keys;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [name] }],
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: EC,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  return { certificate, keys };
}

export interface IssueOptions {
  issuer: Issued;
  name: string;
  ca: boolean;
  keyAlgorithm?: 'P256' | 'ED25519';
  notAfter?: Date;
  notBefore?: Date;
  dns?: string[];
  /** Certify this key (someone else's, e.g. an organisation's signing key) instead of a fresh one; `keys` then has no private key. */
  publicKey?: webcrypto.CryptoKey;
  /** extendedKeyUsage purposes (dotted OIDs), when the leaf should carry the extension. */
  extendedKeyUsages?: string[];
}

export async function issue(options: IssueOptions): Promise<Issued> {
  const algorithm = options.keyAlgorithm === 'ED25519' ? { name: 'Ed25519' } : EC;
  const keys = options.publicKey
    ? ({ publicKey: options.publicKey } as Keys)
    : ((await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as Keys);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: [{ CN: [options.name] }],
    issuer: options.issuer.certificate.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 200 * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: options.issuer.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca, options.ca ? 0 : undefined, true),
      new x509.KeyUsagesExtension(
        options.ca ? x509.KeyUsageFlags.keyCertSign : x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      ...(options.dns
        ? [new x509.SubjectAlternativeNameExtension(options.dns.map((value) => ({ type: 'dns' as const, value })))]
        : []),
      ...(options.extendedKeyUsages ? [new x509.ExtendedKeyUsageExtension(options.extendedKeyUsages, true)] : []),
    ],
  });
  return { certificate, keys };
}

export async function privateKeyPem(issued: Issued): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', issued.keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

export const pemOf = (...chain: Issued[]) => chain.map((c) => c.certificate.toString('pem')).join('\n');
