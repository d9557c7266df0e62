import { x509 } from './x509.js';

export interface ValidateCertificateChainOptions {
  /** The presented chain, leaf first (`x5c` / COSE `x5chain`): parsed certificates or DER bytes. */
  chain: Array<x509.X509Certificate | Uint8Array>;
  /** Trust anchors (CA certificates). */
  anchors: x509.X509Certificate[];
  /** Verification time. */
  now: Date;
}

export type ValidateCertificateChainResult =
  | { ok: true; leaf: x509.X509Certificate; anchor: x509.X509Certificate; path: x509.X509Certificate[] }
  | { ok: false; message: string };

/**
 * Explicit chain validation (VERIFIER.md, Chain validation), not left to a
 * library's chain builder: the chain must end at (or contain) a trust anchor;
 * every link's signature and issuer name; every certificate valid at `now`;
 * basicConstraints cA on every certificate above the leaf, with its path
 * length respected; keyUsage keyCertSign on CAs and digitalSignature on the
 * leaf; the leaf itself not a CA.
 */
export async function validateCertificateChain(options: ValidateCertificateChainOptions): Promise<ValidateCertificateChainResult> {
  let chain: x509.X509Certificate[];
  try {
    chain = options.chain.map((entry) => (entry instanceof x509.X509Certificate ? entry : new x509.X509Certificate(entry)));
  } catch {
    return { ok: false, message: 'a certificate of the chain cannot be parsed' };
  }
  const leaf = chain[0];
  if (!leaf) return { ok: false, message: 'the certificate chain is empty' };

  const anchored = await findAnchor(chain, options.anchors);
  if (!anchored) return { ok: false, message: `the certificate chain of "${leaf.subject}" does not lead to a trust anchor` };
  const full = [...anchored.path, anchored.anchor];

  for (const [index, certificate] of full.entries()) {
    const problem = checkCertificate(certificate, index, options.now);
    if (problem) return { ok: false, message: problem };
  }
  for (let index = 0; index < full.length - 1; index++) {
    // The link to an anchor found by its signature was verified by findAnchor already.
    if (anchored.lastLinkVerified && index === full.length - 2) continue;
    const signed = await isIssuedBy(full[index]!, full[index + 1]!);
    if (!signed) return { ok: false, message: `certificate "${full[index]!.subject}" is not signed by "${full[index + 1]!.subject}"` };
  }
  return { ok: true, leaf, anchor: anchored.anchor, path: anchored.path };
}

/** The part of the chain below the anchor, and the anchor: either inside the chain or the issuer of its last certificate. */
async function findAnchor(
  chain: x509.X509Certificate[],
  anchors: x509.X509Certificate[],
): Promise<{ path: x509.X509Certificate[]; anchor: x509.X509Certificate; lastLinkVerified: boolean } | undefined> {
  for (const [index, certificate] of chain.entries()) {
    const anchor = anchors.find((candidate) => sameCertificate(candidate, certificate));
    if (anchor) return index === 0 ? undefined : { path: chain.slice(0, index), anchor, lastLinkVerified: false };
  }
  const last = chain[chain.length - 1]!;
  for (const anchor of anchors) {
    if (await isIssuedBy(last, anchor)) return { path: chain, anchor, lastLinkVerified: true };
  }
  return undefined;
}

function checkCertificate(certificate: x509.X509Certificate, index: number, now: Date): string | undefined {
  const name = `certificate "${certificate.subject}"`;
  if (now < certificate.notBefore) return `${name} is not valid before ${certificate.notBefore.toISOString()}`;
  if (now > certificate.notAfter) return `${name} expired at ${certificate.notAfter.toISOString()}`;
  const basic = certificate.getExtension(x509.BasicConstraintsExtension);
  const usage = certificate.getExtension(x509.KeyUsagesExtension);
  if (index === 0) {
    if (basic?.ca) return `the leaf ${name} is a CA certificate`;
    if (!usage || !(usage.usages & x509.KeyUsageFlags.digitalSignature)) return `the leaf ${name} lacks keyUsage digitalSignature`;
    return undefined;
  }
  if (!basic?.ca) return `${name} is not a CA (basicConstraints cA is not true)`;
  // pathLenConstraint counts the non-leaf certificates that may follow this one (RFC 5280 §4.2.1.9).
  if (basic.pathLength !== undefined && basic.pathLength < index - 1) {
    return `${name} allows a path length of ${basic.pathLength}, but ${index - 1} CA certificate(s) follow it`;
  }
  if (!usage || !(usage.usages & x509.KeyUsageFlags.keyCertSign)) return `${name} lacks keyUsage keyCertSign`;
  return undefined;
}

async function isIssuedBy(subject: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> {
  if (subject.issuer !== issuer.subject) return false;
  try {
    const publicKey = await verificationKey(issuer, subject.signatureAlgorithm);
    if (!publicKey) return false;
    return await subject.verify({ publicKey, signatureOnly: true });
  } catch {
    return false;
  }
}

/**
 * The issuer's public key imported for verifying `algorithm` signatures, as
 * `X509Certificate.verify` would import it, kept with the certificate object:
 * trust anchors are parsed once (trust-store.ts) and import their key once
 * instead of on every chain they end. Undefined when the key cannot be imported
 * (verify answers false for that too).
 */
type ImportedKey = Awaited<ReturnType<x509.PublicKey['export']>>;

const importedKeys = new WeakMap<x509.X509Certificate, Map<string, Promise<ImportedKey | undefined>>>();

function verificationKey(issuer: x509.X509Certificate, algorithm: x509.X509Certificate['signatureAlgorithm']): Promise<ImportedKey | undefined> {
  let byAlgorithm = importedKeys.get(issuer);
  if (!byAlgorithm) importedKeys.set(issuer, (byAlgorithm = new Map()));
  const id = JSON.stringify(algorithm);
  let key = byAlgorithm.get(id);
  if (!key) {
    key = issuer.publicKey.export({ ...issuer.publicKey.algorithm, ...algorithm }, ['verify']).catch(() => undefined);
    byAlgorithm.set(id, key);
  }
  return key;
}

function sameCertificate(left: x509.X509Certificate, right: x509.X509Certificate): boolean {
  return Buffer.from(left.rawData).equals(Buffer.from(right.rawData));
}
