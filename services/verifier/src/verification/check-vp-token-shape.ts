import type { DcqlQuery } from 'dcql';
import { CheckRow, failure, type CheckFailure } from './check-order.js';

export interface CheckVpTokenShapeOptions {
  vpToken: unknown;
  query: DcqlQuery.Output;
}

export interface PresentationEntry {
  credentialQueryId: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  presentation: string;
  /** `require_cryptographic_holder_binding` (DCQL default true). */
  requireHolderBinding: boolean;
}

export type CheckVpTokenShapeResult = { ok: true; entries: PresentationEntry[] } | { ok: false; failure: CheckFailure };

/**
 * OpenID4VP 1.0 §8.1: `vp_token` is a JSON object whose keys are credential
 * query ids of the query and whose values are non-empty arrays of
 * presentations (strings for both formats here), with more than one only when
 * the query sets `multiple`. A JSON string holding that object is accepted too
 * (form-encoded `direct_post`). Every presentation is ASCII: SD-JWTs are
 * base64url segments and `~` (RFC 9901 §4), mdocs base64url; a character
 * outside ASCII is refused here, before anything is hashed, since `sd_hash`
 * covers bytes and no encoding of a non-ASCII string is the one the wallet hashed.
 */
export function checkVpTokenShape(options: CheckVpTokenShapeOptions): CheckVpTokenShapeResult {
  // `credentialQueryId` only for an id of the query: the wallet's own keys are never named.
  const invalid = (message: string, credentialQueryId?: string): CheckVpTokenShapeResult => ({
    ok: false,
    failure: failure(CheckRow.VP_TOKEN_SHAPE, 'INVALID_VP_TOKEN', message, credentialQueryId),
  });
  let token = options.vpToken;
  if (typeof token === 'string') {
    try {
      token = JSON.parse(token) as unknown;
    } catch {
      return invalid('The vp_token is not a JSON object.');
    }
  }
  if (typeof token !== 'object' || token === null || Array.isArray(token))
    return invalid('The vp_token must be an object keyed by credential query id.');
  const entries: PresentationEntry[] = [];
  const keys = Object.keys(token);
  if (keys.length === 0) return invalid('The vp_token holds no presentation.');
  for (const key of keys) {
    const credentialQuery = options.query.credentials.find((candidate) => candidate.id === key);
    if (!credentialQuery)
      return invalid(`The vp_token names "${key}", which is not a credential query id of the request.`);
    if (credentialQuery.format !== 'dc+sd-jwt' && credentialQuery.format !== 'mso_mdoc')
      return invalid(`Credential query "${key}" asks for an unsupported format.`, key);
    const presentations = (token as Record<string, unknown>)[key];
    if (!Array.isArray(presentations) || presentations.length === 0)
      return invalid(`The vp_token entry "${key}" must be a non-empty array of presentations.`, key);
    if (presentations.length > 1 && !credentialQuery.multiple)
      return invalid(
        `The vp_token entry "${key}" holds ${presentations.length} presentations, but credential query "${key}" does not allow multiple.`,
        key,
      );
    for (const presentation of presentations) {
      if (typeof presentation !== 'string' || presentation.length === 0)
        return invalid(`A presentation for credential query "${key}" is not a non-empty string.`, key);
      const nonAscii = presentation.search(/[\u0080-\uffff]/);
      if (nonAscii >= 0)
        return invalid(
          `A presentation for credential query "${key}" has a non-ASCII character at position ${nonAscii}.`,
          key,
        );
      entries.push({
        credentialQueryId: key,
        format: credentialQuery.format,
        presentation,
        requireHolderBinding: credentialQuery.require_cryptographic_holder_binding !== false,
      });
    }
  }
  return { ok: true, entries };
}
