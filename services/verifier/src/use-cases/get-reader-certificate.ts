import type { LoadReaderAuthMaterial } from '../state/reader-auth-material-loader.js';

export interface GetReaderCertificateDeps {
  /** The replica's reader-authentication loader (issues the platform reader leaf on first use). */
  loadReaderAuthMaterial: LoadReaderAuthMaterial;
}

export interface ReaderChain {
  source: 'platform' | 'imported';
  /** The ReaderAuth `x5chain`: base64 DER, leaf first. */
  chain: string[];
}

/** `GET certificates/READER`: the chain the organisation's `org-iso-mdoc` ReaderAuths carry (never the key). */
export async function getReaderCertificate(
  deps: GetReaderCertificateDeps,
  input: { orgId: string },
): Promise<ReaderChain> {
  const material = await deps.loadReaderAuthMaterial(input);
  return { source: material.source, chain: material.chain };
}
