import { CompactSign } from 'jose';
import {
  ECDSA_P256,
  randomSerialNumber,
  subtle,
  x509,
  type CertificateAuthority,
  type WebCryptoKey,
  type WebCryptoKeyPair,
} from '@tessera/service-kit/x509';

/** The JOSE `typ` of a signed trust list (the issue; ETSI TS 119 602 leaves it to the profile). */
export const TRUST_LIST_JWS_TYPE = 'trustlist+jwt';

/** How long a signing certificate is issued for; a new key and certificate replace it before a list would outlive it. */
const SIGNING_CERTIFICATE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface TrustListSigner {
  /**
   * A compact JWS (ES256, `typ: trustlist+jwt`, `x5c: [signing certificate, CA]`) over
   * `payload`. The signing certificate is valid at `now` and at `validUntil` (the list's
   * NextUpdate), so a verifier can check the chain for the list's whole life.
   */
  sign(payload: unknown, options: { now: Date; validUntil: Date }): Promise<string>;
}

interface SigningKey {
  privateKey: WebCryptoKey;
  certificate: x509.X509Certificate;
  x5c: string[];
}

/**
 * Signs lists with a key of this replica: generated in memory on first use, its
 * certificate issued by the trust-list CA; the CA's key signs nothing else. Replaced
 * (new key, new certificate) when the certificate would end before a list's NextUpdate.
 * Nothing is stored: a restart simply makes a new key, and any list verifies against
 * the CA, whichever replica signed it.
 */
export function createTrustListSigner(ca: CertificateAuthority): TrustListSigner {
  let current: Promise<SigningKey> | undefined;
  const keyFor = async (now: Date, validUntil: Date): Promise<SigningKey> => {
    const existing = current ? await current.catch(() => undefined) : undefined;
    if (existing && existing.certificate.notBefore <= now && existing.certificate.notAfter >= validUntil)
      return existing;
    const issued = issueSigningKey(ca, now, validUntil);
    current = issued;
    return issued;
  };
  return {
    async sign(payload, { now, validUntil }) {
      const key = await keyFor(now, validUntil);
      return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'ES256', typ: TRUST_LIST_JWS_TYPE, x5c: key.x5c })
        .sign(key.privateKey);
    },
  };
}

async function issueSigningKey(ca: CertificateAuthority, now: Date, validUntil: Date): Promise<SigningKey> {
  const notAfter = new Date(
    Math.min(now.getTime() + SIGNING_CERTIFICATE_DAYS * DAY_MS, ca.certificate.notAfter.getTime()),
  );
  if (notAfter < validUntil)
    throw new Error(
      `the trust-list CA certificate ends (${ca.certificate.notAfter.toISOString()}) before a list signed now would; configure a new CA`,
    );
  const keys = (await subtle.generateKey(ECDSA_P256, false, ['sign', 'verify'])) as WebCryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: [{ O: ['Tessera'] }, { CN: ['Tessera Trust List Signer'] }],
    issuer: ca.certificate.subjectName,
    // A little before `now`, for verifiers whose clock runs behind.
    notBefore: new Date(now.getTime() - 5 * 60_000),
    notAfter,
    signingAlgorithm: ECDSA_P256,
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
    ],
  });
  return {
    privateKey: keys.privateKey,
    certificate,
    x5c: [certificate, ca.certificate].map((c) => Buffer.from(c.rawData).toString('base64')),
  };
}
