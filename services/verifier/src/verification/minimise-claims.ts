import type { ClaimPath } from '@tessera/contracts';
import type { ClaimSelection, ClaimsPathPattern } from './evaluate-dcql.js';

/**
 * SD-JWT VC registered claims (§3.2.2) the relying party always receives:
 * they say what the credential is, who issued it, when it is valid and where
 * its status is, not who the holder is. `cnf` (the holder's key) is never
 * returned.
 */
export const RETURNED_REGISTERED_CLAIMS: ReadonlySet<string> = new Set([
  'iss',
  'sub',
  'iat',
  'nbf',
  'exp',
  'vct',
  'vct#integrity',
  'status',
]);

export interface MinimiseClaimsOptions {
  format: 'dc+sd-jwt' | 'mso_mdoc';
  /** The verified claims (SD-JWT: disclosed JSON without `_sd`, `_sd_alg`, `cnf`; mdoc: `{ namespace: { element: value } }`). */
  claims: Record<string, unknown>;
  /** What the credential's query asked for (`evaluateDcql`). */
  selection: ClaimSelection;
}

export interface MinimiseClaimsResult {
  /** What the relying party receives. */
  claims: Record<string, unknown>;
  /** The paths of the claims left out: what the wallet disclosed beyond the query. */
  droppedClaims: ClaimPath[];
}

const MISSING = Symbol('missing');

/**
 * Data minimisation (GDPR Art. 5(1)(c); OpenID4VP 1.0 §14 privacy): the
 * relying party gets the claims its query asked for, plus (SD-JWT) the
 * registered claims, and learns only the paths of anything else the wallet
 * disclosed, never the values. Paths are leaves in DCQL's claims-path form:
 * an SD-JWT claim down to its scalar values and array positions
 * (`["address", "postal_code"]`, `["nationalities", 1]`); an mdoc data element
 * as `[namespace, element]` (an element is disclosed whole); sorted. Where a query
 * asked for some positions of an array, the others are returned as `null`, so
 * the positions asked for keep their indexes. Empty objects and arrays carry
 * no value: returned when asked for, never listed as dropped.
 */
export function minimiseClaims(options: MinimiseClaimsOptions): MinimiseClaimsResult {
  const { selection } = options;
  if (selection.kind === 'all') return { claims: options.claims, droppedClaims: [] };
  const paths = selection.kind === 'paths' ? selection.paths : [];
  const dropped: ClaimPath[] = [];

  if (options.format === 'mso_mdoc') {
    const kept: Record<string, Record<string, unknown>> = {};
    for (const [namespace, elements] of Object.entries(options.claims)) {
      for (const [element, value] of Object.entries((elements ?? {}) as Record<string, unknown>)) {
        if (paths.some((path) => covers(path, [namespace, element]))) (kept[namespace] ??= {})[element] = value;
        else dropped.push([namespace, element]);
      }
    }
    return { claims: kept, droppedClaims: dropped.sort(comparePaths) };
  }

  const registered: Record<string, unknown> = {};
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options.claims)) {
    if (RETURNED_REGISTERED_CLAIMS.has(name)) {
      registered[name] = value;
      continue;
    }
    const projected = project(value, [name], paths, dropped);
    if (projected !== MISSING) kept[name] = projected;
  }
  return { claims: { ...registered, ...kept }, droppedClaims: dropped.sort(comparePaths) };
}

/**
 * A stable order for the dropped paths (segment by segment: names
 * alphabetically, positions numerically), since SD-JWT claims come back in
 * the order of their digests, which is random.
 */
function comparePaths(left: ClaimPath, right: ClaimPath): number {
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const [a, b] = [left[index]!, right[index]!];
    if (a === b) continue;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : 1;
  }
  return left.length - right.length;
}

/** The part of `value` (at `at`) that some path covers; records the uncovered leaves in `dropped`. */
function project(value: unknown, at: ClaimPath, paths: ClaimsPathPattern[], dropped: ClaimPath[]): unknown {
  if (paths.some((path) => covers(path, at))) return value;
  if (Array.isArray(value)) {
    const items = value.map((item, index) => project(item, [...at, index], paths, dropped));
    return items.every((item) => item === MISSING) ? MISSING : items.map((item) => (item === MISSING ? null : item));
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(
      ([key, item]) => [key, project(item, [...at, key], paths, dropped)] as const,
    );
    const present = entries.filter(([, item]) => item !== MISSING);
    return present.length === 0 ? MISSING : Object.fromEntries(present);
  }
  dropped.push(at);
  return MISSING;
}

/** True when `pattern` selects `path` or an ancestor of it (`null` matches any array index). */
function covers(pattern: ClaimsPathPattern, path: ClaimPath): boolean {
  if (pattern.length === 0 || pattern.length > path.length) return false;
  return pattern.every((segment, index) =>
    segment === null ? typeof path[index] === 'number' : segment === path[index],
  );
}
