import { badRequest, splitPemCertificates, type AppError } from '@tessera/service-kit';
import { isSelfSigned, validateCertificateChain } from '../../crypto/certificate-chain.js';
import type { CertificatePurpose } from '../../crypto/certificate-purposes.js';
import { x509 } from '../../crypto/x509.js';

// Shared step of the imports of an organisation's own chain (request signing, mdoc
// reader authentication): the rules every imported chain meets.

/** The certificates of a PEM chain (leaf first); undefined when it holds none or one does not parse. */
export function parseImportedChain(pem: string): x509.X509Certificate[] | undefined {
  try {
    const chain = splitPemCertificates(pem).map((block) => new x509.X509Certificate(block));
    return chain.length > 0 ? chain : undefined;
  } catch {
    return undefined;
  }
}

/** The leaf is not self-signed and comes with its issuer (so its signature can be checked). */
export async function checkImportedLeaf(
  chain: x509.X509Certificate[],
  invalid: (message: string) => AppError,
): Promise<void> {
  if (await isSelfSigned(chain[0]!))
    throw invalid('the leaf certificate is self-signed: import a leaf issued by a CA, followed by its issuer chain');
  if (chain.length < 2)
    throw invalid("include the leaf's issuing CA certificate after the leaf, so the chain can be checked");
}

/**
 * The chain (its leaf checked with `checkImportedLeaf`) is valid up to its last
 * certificate by the one chain rule (the wallet's trust decides the rest). Answers
 * the chain as sent in `x5c`/`x5chain`: base64 DER without a trailing self-signed root
 * (the trust anchor). Refusals name `/certificateChainPem`.
 */
export async function validateImportedChain(options: {
  chain: x509.X509Certificate[];
  now: Date;
  purpose: CertificatePurpose;
}): Promise<string[]> {
  const { chain } = options;
  const validated = await validateCertificateChain({
    chain,
    anchors: [chain[chain.length - 1]!],
    now: options.now,
    purpose: options.purpose,
  });
  if (!validated.ok)
    throw badRequest(
      'The certificate chain is not valid: see details.',
      validated.problems.map((problem) => ({ path: '/certificateChainPem', message: problem })),
    );
  const anchorLast = await isSelfSigned(chain[chain.length - 1]!);
  return (anchorLast ? chain.slice(0, -1) : chain).map((certificate) =>
    Buffer.from(certificate.rawData).toString('base64'),
  );
}
