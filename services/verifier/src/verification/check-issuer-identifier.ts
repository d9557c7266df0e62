import { CheckRow, failure, type CheckFailure } from './check-order.js';
import type { IssuerKeySource } from './issuer-key.js';
import { x509 } from '../crypto/x509.js';

export interface CheckIssuerIdentifierOptions {
  credentialQueryId: string;
  /** The issuer-signed payload's `iss`, when present. */
  iss: unknown;
  /** The key that signed the credential: an x5c chain's leaf, or a DID. */
  source: IssuerKeySource;
}

/**
 * `iss` is authenticated (SD-JWT VC §3.5, issuer key resolution): a present
 * `iss` must name whoever holds the signing key, or a relying party would be
 * told one issuer while trust was granted to another. With an x5c chain, `iss`
 * equals a uniformResourceIdentifier SAN of the leaf, or `https://` plus one
 * of its dNSName SANs (host compared case-insensitively, nothing after it);
 * with a DID key, the DID itself. An absent `iss` is allowed (it is optional):
 * the result then names the issuer by the leaf's subject or the DID.
 */
export function checkIssuerIdentifier(options: CheckIssuerIdentifierOptions): CheckFailure | undefined {
  const { iss, source } = options;
  if (iss === undefined) return undefined;
  const mismatch = (reason: string) =>
    failure(
      CheckRow.ISSUER_IDENTIFIER,
      'ISSUER_MISMATCH',
      `The iss of credential query "${options.credentialQueryId}" does not name its signer: ${reason}.`,
    );
  if (typeof iss !== 'string' || iss.length === 0) return mismatch('iss is not a non-empty string');
  if (source.kind === 'did')
    return iss === source.did
      ? undefined
      : mismatch(`iss is ${JSON.stringify(iss)}, but the signing key is ${source.did}`);
  const leaf = source.chain[0]!;
  const names = subjectAltNamesOf(leaf);
  if (names.uris.includes(iss)) return undefined;
  if (names.dnsNames.some((dnsName) => iss.toLowerCase() === `https://${dnsName.toLowerCase()}`)) return undefined;
  const listed = [...names.uris, ...names.dnsNames.map((dnsName) => `https://${dnsName}`)];
  return mismatch(
    `iss is ${JSON.stringify(iss)}, but the signing certificate "${leaf.subject}" names ${listed.length > 0 ? listed.map((name) => JSON.stringify(name)).join(', ') : 'no URI or DNS name'}`,
  );
}

function subjectAltNamesOf(certificate: x509.X509Certificate): { uris: string[]; dnsNames: string[] } {
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  const items = san?.names.items ?? [];
  return {
    uris: items.filter((name) => name.type === 'url').map((name) => name.value),
    dnsNames: items.filter((name) => name.type === 'dns').map((name) => name.value),
  };
}
