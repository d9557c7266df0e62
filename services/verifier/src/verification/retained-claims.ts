import type { ClaimsPathPattern } from './evaluate-dcql.js';
import { minimiseClaims, RETURNED_REGISTERED_CLAIMS } from './minimise-claims.js';

// Which verified claims outlive the first read (issue 15): those the query claim
// marks `intent_to_retain: true`. The lifetimes themselves are the domain's
// (domain/presentation-data.ts); this is the selection, by the same paths and rules
// as the minimisation to the query (minimise-claims.ts).

/**
 * The presentations with only the claims the relying party declared it keeps
 * (`intent_to_retain: true` on the query claim), or null when no query claim did.
 * SD-JWT registered claims (`iss`, `sub`, `iat`…) are not asked for by a query
 * claim, so they are read-once unless a retained path names them.
 */
export function retainedPresentations(
  dcqlQuery: Record<string, unknown>,
  presentations: Array<Record<string, unknown>>,
): Array<Record<string, unknown>> | null {
  const retainedPaths = new Map<string, ClaimsPathPattern[]>();
  for (const credential of asArray(dcqlQuery.credentials)) {
    if (!isObject(credential) || typeof credential.id !== 'string') continue;
    const paths = asArray(credential.claims)
      .filter(
        (claim): claim is Record<string, unknown> =>
          isObject(claim) && claim.intent_to_retain === true && Array.isArray(claim.path),
      )
      .map((claim) => claim.path as ClaimsPathPattern);
    if (paths.length > 0) retainedPaths.set(credential.id, paths);
  }
  if (retainedPaths.size === 0) return null;
  return presentations.map((presentation) => {
    const paths = retainedPaths.get(String(presentation.credentialQueryId)) ?? [];
    const format = presentation.format === 'mso_mdoc' ? 'mso_mdoc' : 'dc+sd-jwt';
    const claims = isObject(presentation.claims) ? presentation.claims : {};
    const kept =
      paths.length === 0 ? {} : minimiseClaims({ format, claims, selection: { kind: 'paths', paths } }).claims;
    if (format === 'dc+sd-jwt') {
      for (const name of Object.keys(kept)) {
        if (RETURNED_REGISTERED_CLAIMS.has(name) && !paths.some((path) => path[0] === name)) delete kept[name];
      }
    }
    return { ...presentation, claims: kept };
  });
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
