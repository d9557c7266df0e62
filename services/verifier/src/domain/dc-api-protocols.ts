/**
 * The request protocols a browser's Digital Credentials API offers a verifier
 * (`navigator.credentials.get({ digital: { requests: [{ protocol, data }] } })`):
 * the three OpenID4VP 1.0 request types of its Appendix A, and ISO/IEC
 * 18013-7:2025 Annex C for mdoc. Order is the relying party's preference.
 */
export const DC_API_PROTOCOLS = [
  'openid4vp-v1-unsigned',
  'openid4vp-v1-signed',
  'openid4vp-v1-multisigned',
  'org-iso-mdoc',
] as const;

export type DcApiProtocol = (typeof DC_API_PROTOCOLS)[number];

/** What a session offers when the relying party names no protocol: today's single signed request. */
export const DEFAULT_DC_API_PROTOCOLS: readonly DcApiProtocol[] = ['openid4vp-v1-signed'];

export function isDcApiProtocol(value: unknown): value is DcApiProtocol {
  return typeof value === 'string' && (DC_API_PROTOCOLS as readonly string[]).includes(value);
}

/** The OpenID4VP protocols (their answers carry a `vp_token`); `org-iso-mdoc` answers an EncryptedResponse. */
export function isOpenid4vpProtocol(protocol: DcApiProtocol): boolean {
  return protocol !== 'org-iso-mdoc';
}

export type DcApiProtocolsProblem = { path: string; message: string };

/**
 * Checks a `dcApiProtocols` body field: a non-empty array of known protocol
 * names without repeats. Returns one problem per offending entry (JSON Pointer
 * relative to the field), or none.
 */
export function checkDcApiProtocols(value: unknown): DcApiProtocolsProblem[] {
  if (!Array.isArray(value)) return [{ path: '', message: 'must be an array of protocol names' }];
  if (value.length === 0) return [{ path: '', message: 'must name at least one protocol' }];
  const problems: DcApiProtocolsProblem[] = [];
  const seen = new Set<string>();
  value.forEach((entry, index) => {
    if (!isDcApiProtocol(entry)) {
      problems.push({ path: `/${index}`, message: `must be one of ${DC_API_PROTOCOLS.join(', ')}` });
      return;
    }
    if (seen.has(entry)) problems.push({ path: `/${index}`, message: `repeats ${entry}` });
    seen.add(entry);
  });
  return problems;
}
