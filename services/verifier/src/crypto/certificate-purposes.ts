/**
 * What a leaf certificate is used for, and the extended key usages (EKU) that
 * allow that use. RFC 5280 §4.2.1.12: a certificate with an EKU extension may
 * be used only for the purposes it lists. None of the uses below requires the
 * extension (a leaf without it is judged by keyUsage alone); a leaf that has
 * it must list one of its use's purposes.
 */
export interface CertificatePurpose {
  /** How messages name the use ("mdoc document signer"). */
  name: string;
  /** Dotted OIDs, any one of which allows the use. */
  extendedKeyUsages: readonly string[];
}

/** ISO/IEC 18013-5 Annex B: the document signer (mdoc issuer) key purpose. */
export const MDOC_DOCUMENT_SIGNER_EKU = '1.0.18013.5.1.2';
/** ISO/IEC 18013-5 Annex B: mdoc reader authentication (a verifier proving who it is to a wallet). */
export const MDOC_READER_AUTH_EKU = '1.0.18013.5.1.6';
/** ISO/IEC TS 23220-4: mdoc reader authentication for the wider mdoc family. */
export const MDOC_READER_AUTH_23220_EKU = '1.0.23220.4.1.6';
/** RFC 5280 anyExtendedKeyUsage: the issuing CA did not restrict the key. */
export const ANY_EKU = '2.5.29.37.0';

/** mdoc issuers: ISO 18013-5 document signer certificates carry the document signer EKU. */
export const MDOC_ISSUER: CertificatePurpose = {
  name: 'mdoc document signer',
  extendedKeyUsages: [MDOC_DOCUMENT_SIGNER_EKU],
};

/**
 * SD-JWT VC issuers: no EKU is registered for them. Issuers that sign both
 * formats with one document signer certificate (as PID providers do) carry the
 * ISO document signer EKU; anyExtendedKeyUsage leaves the key unrestricted. A
 * leaf restricted to anything else (TLS server, code signing…) is not an issuer key.
 */
export const SD_JWT_VC_ISSUER: CertificatePurpose = {
  name: 'SD-JWT VC issuer',
  extendedKeyUsages: [MDOC_DOCUMENT_SIGNER_EKU, ANY_EKU],
};

/**
 * Request-signing leaves (platform-issued or imported by an organisation): the
 * verifier authenticates itself to wallets, the purpose ISO 18013-5 and TS
 * 23220-4 name reader authentication; anyExtendedKeyUsage leaves the key unrestricted.
 */
export const REQUEST_SIGNER: CertificatePurpose = {
  name: 'request signer',
  extendedKeyUsages: [MDOC_READER_AUTH_EKU, MDOC_READER_AUTH_23220_EKU, ANY_EKU],
};

/**
 * Status list token signers: the issuer's own certificate (either issuer
 * purpose), or a certificate carrying the Token Status List signing EKU
 * (draft-ietf-oauth-status-list, `id-kp-oauthStatusSigning`). The draft has
 * not had that OID assigned yet (`{ id-kp TBD }`), so it is configured
 * (`STATUS_LIST_SIGNING_EKU`) rather than guessed; without it, only issuer
 * certificates sign status lists.
 */
export function statusListSigner(statusSigningEku: string | undefined): CertificatePurpose {
  return {
    name: 'status list signer',
    extendedKeyUsages: [
      ...new Set([
        ...SD_JWT_VC_ISSUER.extendedKeyUsages,
        ...MDOC_ISSUER.extendedKeyUsages,
        ...(statusSigningEku ? [statusSigningEku] : []),
      ]),
    ],
  };
}

/**
 * mdoc reader-authentication leaves (the `x5chain` of `org-iso-mdoc` ReaderAuths):
 * the ISO/IEC 18013-5 Annex B reader profile names the reader-authentication EKU,
 * and wallets check it, so an imported reader leaf must carry it (checked where it
 * is imported; this purpose refuses a leaf restricted to anything else).
 */
export const READER_AUTHENTICATION: CertificatePurpose = {
  name: 'mdoc reader authentication',
  extendedKeyUsages: [MDOC_READER_AUTH_EKU],
};
