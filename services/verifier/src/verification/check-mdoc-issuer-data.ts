import { createHash } from 'node:crypto';
import type { IssuerSignedDocument } from '@auth0/mdl';
import { cborEncodedDataItem } from './cbor-heads.js';
import { verifyCoseSign1SignatureInPool } from './cose-sign1.js';
import { coseSign1OfParsed } from './mdoc-cose-sign1.js';
import { certificatePublicKey } from '../crypto/parsed-certificates.js';
import type { x509 } from '../crypto/x509.js';

// Row 12 for an mdoc (ISO/IEC 18013-5 §9.1.2-9.1.3): the MSO's COSE_Sign1 verified with the
// document signer's key as the service holds it — the leaf of the chain it has just validated,
// imported once per certificate (crypto/parsed-certificates.ts) — and the data the MSO covers:
// each element's digest, its namespace's digests present, the digest algorithm one of ISO's,
// the MSO signed while the signer's certificate was valid, and an mDL's issuing_country (and
// issuing_jurisdiction) the signer's certificate names. These are the ISSUER_AUTH and
// DATA_INTEGRITY checks of @auth0/mdl's Verifier, which imported the signer's key from PEM
// again on every call; its parse (cbor-x) still reads the DeviceResponse.

const MDL_NAMESPACE = 'org.iso.18013.5.1';
const DIGESTS = new Map([
  ['SHA-256', 'sha256'],
  ['SHA-384', 'sha384'],
  ['SHA-512', 'sha512'],
]);

type IssuerAuth = IssuerSignedDocument['issuerSigned']['issuerAuth'];

export interface CheckMdocIssuerDataOptions {
  document: IssuerSignedDocument;
  /** The validated chain's leaf (parsed once per DER) and its DER as presented. */
  leaf: x509.X509Certificate;
  leafDer: Uint8Array;
}

/** undefined when the issuer data holds, else why not (a sentence fragment); throws on undecodable input. */
export async function checkMdocIssuerData(options: CheckMdocIssuerDataOptions): Promise<string | undefined> {
  const issuerAuth = options.document.issuerSigned.issuerAuth;
  const sign1 = coseSign1OfParsed(issuerAuth);
  try {
    await verifyCoseSign1SignatureInPool(sign1, certificatePublicKey(options.leafDer), 'MSO');
  } catch (error) {
    return error instanceof Error ? error.message : 'the MSO signature is invalid';
  }
  const mso = issuerAuth.decodedPayload;
  const signed = mso.validityInfo?.signed;
  if (signed instanceof Date && (signed < options.leaf.notBefore || signed > options.leaf.notAfter)) {
    return `the MSO was signed (${signed.toISOString()}) outside its signer certificate's validity`;
  }
  return checkValueDigests(options.document, issuerAuth, options.leaf);
}

/** Every presented element's digest as the MSO lists it (ISO/IEC 18013-5 §9.1.2.5), and the mDL's issuing country. */
function checkValueDigests(
  document: IssuerSignedDocument,
  issuerAuth: IssuerAuth,
  leaf: x509.X509Certificate,
): string | undefined {
  const { valueDigests, digestAlgorithm } = issuerAuth.decodedPayload;
  const hash = DIGESTS.get(digestAlgorithm);
  if (!hash) return `the MSO's digest algorithm ${JSON.stringify(digestAlgorithm)} is not supported`;
  for (const [namespace, items] of Object.entries(document.issuerSigned.nameSpaces ?? {})) {
    const digests = valueDigests?.get(namespace);
    if (!digests) return `the MSO has no digests for namespace ${namespace}`;
    for (const item of items) {
      // IssuerSignedItemBytes: the item as presented, in its tag-24 byte string.
      const itemBytes = cborEncodedDataItem(item.dataItem.buffer);
      const expected = digests.get(item.digestID);
      const actual = createHash(hash).update(itemBytes).digest();
      if (!(expected instanceof Uint8Array) || !actual.equals(expected))
        return `the digest of ${namespace}/${String(item.elementIdentifier)} does not match the MSO`;
    }
    if (namespace === MDL_NAMESPACE) {
      const problem = checkIssuingCountry(items, leaf);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * An mDL's `issuing_country` must be the countryName, and its `issuing_jurisdiction` the
 * stateOrProvinceName when there is one, of the signer certificate's issuer name, as
 * @auth0/mdl compared them.
 */
function checkIssuingCountry(
  items: IssuerSignedDocument['issuerSigned']['nameSpaces'][string],
  leaf: x509.X509Certificate,
): string | undefined {
  const country = leaf.issuerName.getField('C')[0];
  const state = leaf.issuerName.getField('ST')[0];
  for (const item of items) {
    if (item.elementIdentifier === 'issuing_country' && item.elementValue !== country)
      return `issuing_country ${JSON.stringify(item.elementValue)} is not the country (${String(country)}) of the signer certificate`;
    if (item.elementIdentifier === 'issuing_jurisdiction' && state !== undefined && item.elementValue !== state)
      return `issuing_jurisdiction ${JSON.stringify(item.elementValue)} is not the state or province (${state}) of the signer certificate`;
  }
  return undefined;
}
