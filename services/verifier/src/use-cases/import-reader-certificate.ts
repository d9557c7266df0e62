import type { JWK } from 'jose';
import { badRequest, type Clock } from '@tessera/service-kit';
import { MDOC_READER_AUTH_EKU, READER_AUTHENTICATION } from '../crypto/certificate-purposes.js';
import { samePublicKey } from '../crypto/signing-key.js';
import { subtle, x509, type WebCryptoKey } from '../crypto/x509.js';
import { upsertImportedReaderCertificate } from '../db/reader-certificates.js';
import type { VerifierDb } from '../db/types.js';
import type { LoadSigningMaterial } from '../state/signing-material-loader.js';
import type { ReaderChain } from './get-reader-certificate.js';
import { checkImportedLeaf, parseImportedChain, validateImportedChain } from './steps/imported-chain.js';

export interface ImportReaderCertificateDeps {
  db: VerifierDb;
  clock: Clock;
  /** The organisation's P-256 key the chain must certify. */
  loadSigningMaterial: LoadSigningMaterial;
}

export interface ImportReaderCertificateInput {
  orgId: string;
  certificateChainPem: string;
}

const invalid = (message: string) =>
  badRequest(`The reader certificate import is invalid: ${message}.`, [{ path: '/certificateChainPem', message }]);

/**
 * `PUT certificates/READER`: the organisation's own mdoc reader-authentication
 * chain for its current P-256 request-signing key (the key ReaderAuths are
 * signed with), typically from the CA its wallets' reader trust lists name.
 * Rules of the request-signing import: leaf first with its issuer, leaf not
 * self-signed, valid up to its last certificate by the one chain rule; and the
 * leaf must certify the organisation's P-256 key and carry the reader-authentication
 * EKU (ISO/IEC 18013-5 Annex B). A self-signed root at the end stays out of `x5chain`.
 */
export async function importReaderCertificate(
  deps: ImportReaderCertificateDeps,
  input: ImportReaderCertificateInput,
): Promise<ReaderChain> {
  const chain = parseImportedChain(input.certificateChainPem);
  if (!chain) throw invalid('must hold one or more PEM certificates (-----BEGIN CERTIFICATE-----), leaf first');
  await checkImportedLeaf(chain, invalid);
  const leaf = chain[0]!;
  const eku = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  if (!eku?.usages.map(String).includes(MDOC_READER_AUTH_EKU))
    throw invalid(`the leaf must carry the mdoc reader authentication extended key usage (${MDOC_READER_AUTH_EKU})`);
  const signing = await deps.loadSigningMaterial({ orgId: input.orgId, keyType: 'P256' });
  const leafJwk = (await subtle.exportKey('jwk', (await leaf.publicKey.export()) as WebCryptoKey)) as JWK;
  if (!samePublicKey(leafJwk, signing.publicJwk))
    throw invalid(
      "the leaf certifies another key than the organisation's P-256 request-signing key (GET certificates/P256 shows it)",
    );
  const now = deps.clock();
  const x5chain = await validateImportedChain({ chain, now, purpose: READER_AUTHENTICATION });
  await upsertImportedReaderCertificate(deps.db, {
    orgId: input.orgId,
    publicJwk: signing.publicJwk as Record<string, unknown>,
    certificateChain: x5chain,
    now,
  });
  return { source: 'imported', chain: x5chain };
}
