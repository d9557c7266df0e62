import { x509 } from './x509.js';

export interface ChainProblem {
  /** Index in the chain (0 = leaf). */
  index: number;
  message: string;
}

export interface ValidateChainOptions {
  /** Leaf first; each certificate is issued by the next one. */
  chain: x509.X509Certificate[];
  /** Verification time. */
  now: Date;
  /** When given, the last certificate must be issued by (or be) this anchor. */
  anchor?: x509.X509Certificate;
}

/**
 * Explicit chain validation (VERIFIER.md, Chain validation): each link's
 * signature, every validity period at `now`, basicConstraints cA on every
 * certificate above the leaf with its path length respected, keyCertSign on
 * CAs and digitalSignature on the leaf (when keyUsage is present). Returns the
 * problems found; an empty list means valid.
 */
export async function validateCertificateChain(options: ValidateChainOptions): Promise<ChainProblem[]> {
  const { chain, now } = options;
  const problems: ChainProblem[] = [];
  if (chain.length === 0) return [{ index: 0, message: 'the chain is empty' }];
  for (const [index, certificate] of chain.entries()) {
    if (now < certificate.notBefore) problems.push({ index, message: `certificate ${index} is not valid before ${certificate.notBefore.toISOString()}` });
    if (now > certificate.notAfter) problems.push({ index, message: `certificate ${index} expired at ${certificate.notAfter.toISOString()}` });
    const usage = certificate.getExtension(x509.KeyUsagesExtension);
    const basic = certificate.getExtension(x509.BasicConstraintsExtension);
    if (index === 0) {
      if (basic?.ca) problems.push({ index, message: 'the leaf certificate is a CA certificate' });
      if (usage && !(usage.usages & x509.KeyUsageFlags.digitalSignature)) problems.push({ index, message: 'the leaf certificate keyUsage lacks digitalSignature' });
      continue;
    }
    if (!basic?.ca) {
      problems.push({ index, message: `certificate ${index} is not a CA (basicConstraints cA is not true)` });
    } else if (basic.pathLength !== undefined && basic.pathLength < index - 1) {
      problems.push({ index, message: `certificate ${index} allows a path length of ${basic.pathLength}, but ${index - 1} CA certificate(s) follow it` });
    }
    if (usage && !(usage.usages & x509.KeyUsageFlags.keyCertSign)) problems.push({ index, message: `certificate ${index} keyUsage lacks keyCertSign` });
  }
  for (let index = 0; index < chain.length - 1; index++) {
    const subject = chain[index]!;
    const issuer = chain[index + 1]!;
    const signed = subject.issuer === issuer.subject && (await subject.verify({ publicKey: issuer.publicKey, signatureOnly: true }).catch(() => false));
    if (!signed) problems.push({ index, message: `certificate ${index} is not signed by certificate ${index + 1}` });
  }
  if (options.anchor) {
    const last = chain[chain.length - 1]!;
    const isAnchor = Buffer.from(last.rawData).equals(Buffer.from(options.anchor.rawData));
    if (!isAnchor) {
      const signed = last.issuer === options.anchor.subject && (await last.verify({ publicKey: options.anchor.publicKey, signatureOnly: true }).catch(() => false));
      if (!signed) problems.push({ index: chain.length - 1, message: 'the chain does not lead to the trust anchor' });
    }
  }
  return problems;
}

/** Splits a PEM bundle into certificates, in order. */
export function parsePemCertificates(pem: string): x509.X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new x509.X509Certificate(block));
}

export async function isSelfSigned(certificate: x509.X509Certificate): Promise<boolean> {
  return certificate.subject === certificate.issuer && (await certificate.isSelfSigned().catch(() => false));
}
