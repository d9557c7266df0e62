import { certificateFingerprint } from './certificate-fingerprint.js';
import { checkCertificateProfile, checkExtendedKeyUsage } from './certificate-profile.js';
import type { CertificatePurpose } from './certificate-purposes.js';
import { parseCertificateDer } from './parsed-certificates.js';
import { validatedChainKey, type ValidatedChains } from './validated-chains.js';
import { x509 } from './x509.js';

/**
 * X.509 path validation, the one rule set of the service (VERIFIER.md, Chain
 * validation; RFC 5280): issuer chains of credentials and status lists,
 * imported request-signing chains, trust anchors and the platform CA are all
 * judged by it.
 *
 * - every certificate of the path, the anchor included, is valid at `now`;
 * - every certificate above the leaf is a CA: basicConstraints cA true, its
 *   pathLenConstraint respected, keyUsage present with keyCertSign;
 * - the leaf is not a CA and has keyUsage with digitalSignature; when it has
 *   extendedKeyUsage, that lists a purpose of its use (`purpose`);
 * - every link's issuer name and signature; the leaf is never the anchor;
 * - every certificate meets the profile (`certificate-profile.ts`): no
 *   critical extension this service does not understand, no RSA key under
 *   2048 bits, no signature it relies on made with SHA-1 (or MD5).
 *
 * A leaf trusted exactly (`pinnedLeaves`: an ecosystem trust list's leaf
 * entries, matched by SHA-256 fingerprint) is its own anchor: the leaf's rules
 * above (validity, profile, not a CA, digitalSignature, extendedKeyUsage) still
 * apply to it; the certificates above it in the chain play no part.
 */

export interface ValidateCertificateChainOptions {
  /** The presented chain, leaf first (`x5c`, COSE `x5chain`, an imported PEM chain): parsed certificates or DER bytes. */
  chain: Array<x509.X509Certificate | Uint8Array>;
  /** Trust anchors (CA certificates): the chain contains one, or its last certificate is issued by one. */
  anchors: x509.X509Certificate[];
  /** Verification time. */
  now: Date;
  /** What the leaf is used for: an extendedKeyUsage on it must allow this (`certificate-purposes.ts`). */
  purpose: CertificatePurpose;
  /** Successes to reuse and remember (`validated-chains.ts`); without it every call validates in full. */
  cache?: ValidatedChains;
  /** Leaves trusted exactly, by fingerprint (lowercase hex SHA-256 of the DER): a chain led by one is anchored by it. */
  pinnedLeaves?: ReadonlyMap<string, x509.X509Certificate>;
}

export type ValidateCertificateChainResult =
  | { ok: true; leaf: x509.X509Certificate; anchor: x509.X509Certificate; path: x509.X509Certificate[] }
  /** `message` is the first problem; `problems` lists every one found once the anchor is known. */
  | { ok: false; message: string; problems: string[] };

export async function validateCertificateChain(
  options: ValidateCertificateChainOptions,
): Promise<ValidateCertificateChainResult> {
  const { cache } = options;
  if (options.pinnedLeaves && options.pinnedLeaves.size > 0) {
    const pinned = validatePinnedLeaf(options.chain[0], options);
    if (pinned) return pinned;
  }
  // A chain validated before against exactly these anchors, for this purpose, still valid now (validated-chains.ts).
  const cacheKey = cache
    ? validatedChainKey(
        options.chain.map((entry) => (entry instanceof x509.X509Certificate ? new Uint8Array(entry.rawData) : entry)),
        options.anchors,
        options.purpose,
      )
    : undefined;
  const known = cacheKey ? cache!.find(cacheKey, options.now) : undefined;
  if (known) return { ok: true, leaf: known.leaf, anchor: known.anchor, path: known.path };

  let chain: x509.X509Certificate[];
  try {
    chain = options.chain.map((entry) => (entry instanceof x509.X509Certificate ? entry : parseCertificateDer(entry)));
  } catch {
    return refused(['a certificate of the chain cannot be parsed']);
  }
  const leaf = chain[0];
  if (!leaf) return refused(['the certificate chain is empty']);

  const anchored = await findAnchor(chain, options.anchors);
  if (!anchored) return refused([`the certificate chain of "${leaf.subject}" does not lead to a trust anchor`]);
  const full = [...anchored.path, anchored.anchor];

  const problems: string[] = [];
  for (const [index, certificate] of full.entries()) {
    const problem = checkCertificate(certificate, {
      index,
      isAnchor: index === full.length - 1,
      now: options.now,
      purpose: options.purpose,
    });
    if (problem) problems.push(problem);
  }
  for (let index = 0; index < full.length - 1; index++) {
    // The link to an anchor found by its signature was verified by findAnchor already.
    if (anchored.lastLinkVerified && index === full.length - 2) continue;
    if (!(await isIssuedBy(full[index]!, full[index + 1]!)))
      problems.push(`certificate "${full[index]!.subject}" is not signed by "${full[index + 1]!.subject}"`);
  }
  if (problems.length > 0) return refused(problems);
  if (cacheKey) cache!.remember(cacheKey, { leaf, anchor: anchored.anchor, path: anchored.path });
  return { ok: true, leaf, anchor: anchored.anchor, path: anchored.path };
}

/**
 * A chain whose leaf is trusted exactly: judged by the leaf's rules alone (its
 * own signature is not relied on, as an anchor's is not); undefined when the
 * leaf is not pinned, so the chain is validated as any other. Never cached: it
 * is one fingerprint and one certificate's checks.
 */
function validatePinnedLeaf(
  first: x509.X509Certificate | Uint8Array | undefined,
  options: ValidateCertificateChainOptions,
): ValidateCertificateChainResult | undefined {
  if (!first) return undefined;
  let leaf: x509.X509Certificate;
  try {
    leaf = first instanceof x509.X509Certificate ? first : parseCertificateDer(first);
  } catch {
    return undefined;
  }
  const pinned = options.pinnedLeaves!.get(certificateFingerprint(leaf));
  if (!pinned) return undefined;
  const problem = checkCertificate(pinned, { index: 0, isAnchor: true, now: options.now, purpose: options.purpose });
  return problem ? refused([problem]) : { ok: true, leaf: pinned, anchor: pinned, path: [] };
}

/**
 * Why `certificate` cannot be a trust anchor or issuing CA, or undefined when
 * it can: basicConstraints cA true and keyUsage with keyCertSign (RFC 5280
 * §4.2.1.3, §4.2.1.9), and the profile's key and extension rules (its own
 * signature is not relied on: an anchor is trusted by configuration).
 */
export function checkCaCertificate(certificate: x509.X509Certificate): string | undefined {
  return caCapabilityProblem(certificate) ?? checkCertificateProfile(certificate, { signatureRelied: false });
}

function caCapabilityProblem(certificate: x509.X509Certificate): string | undefined {
  if (!certificate.getExtension(x509.BasicConstraintsExtension)?.ca)
    return 'is not a CA certificate (basicConstraints cA is not true)';
  const usage = certificate.getExtension(x509.KeyUsagesExtension);
  if (!usage || !(usage.usages & x509.KeyUsageFlags.keyCertSign)) return 'lacks keyUsage keyCertSign';
  return undefined;
}

export async function isSelfSigned(certificate: x509.X509Certificate): Promise<boolean> {
  return certificate.subject === certificate.issuer && (await certificate.isSelfSigned().catch(() => false));
}

function refused(problems: string[]): ValidateCertificateChainResult {
  return { ok: false, message: problems[0]!, problems };
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

interface CheckCertificateOptions {
  /** Position in the path, leaf = 0. */
  index: number;
  /** The anchor: trusted by configuration, its own signature is not relied on. */
  isAnchor: boolean;
  now: Date;
  purpose: CertificatePurpose;
}

function checkCertificate(certificate: x509.X509Certificate, options: CheckCertificateOptions): string | undefined {
  const { index, now } = options;
  const name = `certificate "${certificate.subject}"`;
  if (now < certificate.notBefore) return `${name} is not valid before ${certificate.notBefore.toISOString()}`;
  if (now > certificate.notAfter) return `${name} expired at ${certificate.notAfter.toISOString()}`;
  const profile = checkCertificateProfile(certificate, { signatureRelied: !options.isAnchor });
  if (profile) return `${name} ${profile}`;
  if (index === 0) {
    if (certificate.getExtension(x509.BasicConstraintsExtension)?.ca) return `the leaf ${name} is a CA certificate`;
    const usage = certificate.getExtension(x509.KeyUsagesExtension);
    if (!usage || !(usage.usages & x509.KeyUsageFlags.digitalSignature))
      return `the leaf ${name} lacks keyUsage digitalSignature`;
    // A caller that names no purpose gets the strictest reading: no extendedKeyUsage allows it.
    const wrongUse = checkExtendedKeyUsage(
      certificate,
      options.purpose ?? { name: 'an unnamed use', extendedKeyUsages: [] },
    );
    if (wrongUse) return `the leaf ${name} ${wrongUse}`;
    return undefined;
  }
  const notCa = caCapabilityProblem(certificate);
  if (notCa) return `${name} ${notCa}`;
  // pathLenConstraint counts the non-leaf certificates that may follow this one (RFC 5280 §4.2.1.9).
  const pathLength = certificate.getExtension(x509.BasicConstraintsExtension)!.pathLength;
  if (pathLength !== undefined && pathLength < index - 1)
    return `${name} allows a path length of ${pathLength}, but ${index - 1} CA certificate(s) follow it`;
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
 * trust anchors are parsed once (verification/trust-store.ts) and import their
 * key once instead of on every chain they end. Undefined when the key cannot be
 * imported (verify answers false for that too).
 */
type ImportedKey = Awaited<ReturnType<x509.PublicKey['export']>>;

const importedKeys = new WeakMap<x509.X509Certificate, Map<string, Promise<ImportedKey | undefined>>>();

function verificationKey(
  issuer: x509.X509Certificate,
  algorithm: x509.X509Certificate['signatureAlgorithm'],
): Promise<ImportedKey | undefined> {
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
