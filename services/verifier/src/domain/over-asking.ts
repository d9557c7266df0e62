import type { ClaimPath, RegisteredCredential, RegisteredIntendedUse } from './registered-intended-use.js';

/** A part of a DCQL query no registered intended use covers: what an EU wallet flags as asking too much. */
export interface OverAskingPath {
  /** JSON Pointer of the part in the request body: a `vct_values` entry, `doctype_value`, `format`, or a claim's `path`. */
  path: string;
  credentialQueryId: string;
  kind: 'credential_type' | 'claim';
  message: string;
}

export interface OverAskingEvaluation {
  /** One entry per path outside the registration, in query order; empty when the query asks only for what was registered. */
  outside: OverAskingPath[];
  /** For each intended use (in the order given), the ids of the credential queries it covers entirely: `verifier_info`'s `credential_ids`. */
  coveredCredentialIds: string[][];
}

export interface EvaluateOverAskingOptions {
  /** A valid DCQL query (as `validateDcqlQuery` accepts it; `combine` may be present). */
  dcqlQuery: Record<string, unknown>;
  intendedUses: RegisteredIntendedUse[];
  /** JSON Pointer of the query in the request body (`/dcql`, `/templateJson/dcql/query`); paths are below it. */
  pointer?: string;
}

/**
 * Judges a DCQL query against the intended uses a relying party registered (its registration
 * certificate, ETSI TS 119 475). A credential query is covered by an intended use when that use
 * registers every credential type the query accepts (each `vct_values` entry; the `doctype_value`)
 * in the query's format, and, for each of those types, every claim the query names: a registered
 * claim path covers the paths below it (`["address"]` covers `["address", "street_address"]`), a
 * registered `null` matches any key or index, a requested `null` (every array element) only a
 * registered `null`, and a type registered with `'all'` covers every claim. A query without claims
 * asks for no selectively disclosable claim (OpenID4VP 1.0 §6.4.1), so only its types count.
 *
 * A query no single intended use covers contributes the paths its closest use (fewest paths
 * outside; the first on a tie) leaves out — its unregistered types, and the claims a registered
 * type of it lacks (the claims of a type that is not registered at all are not listed again). So
 * `outside` is empty exactly when every query is covered by some intended use.
 */
export function evaluateOverAsking(options: EvaluateOverAskingOptions): OverAskingEvaluation {
  const pointer = options.pointer ?? '';
  const queries = credentialQueriesOf(options.dcqlQuery);
  const coveredCredentialIds = options.intendedUses.map(() => [] as string[]);
  const outside: OverAskingPath[] = [];
  queries.forEach((query, index) => {
    const at = `${pointer}/credentials/${index}`;
    const gaps = options.intendedUses.map((use) => gapsOf(query, use, at));
    gaps.forEach((gap, useIndex) => {
      if (gap.length === 0) coveredCredentialIds[useIndex]!.push(query.id);
    });
    if (gaps.some((gap) => gap.length === 0)) return;
    const closest = gaps.reduce<OverAskingPath[] | undefined>(
      (best, gap) => (best === undefined || gap.length < best.length ? gap : best),
      undefined,
    );
    outside.push(...(closest ?? gapsOf(query, { purpose: [], credentials: [] }, at)));
  });
  return { outside, coveredCredentialIds };
}

interface CredentialQuery {
  id: string;
  format: string;
  /** The types the query accepts, with the JSON Pointer (below the query) of each. */
  types: Array<{ type: string | undefined; pointer: string }>;
  claims: Array<{ path: ClaimPath; pointer: string }>;
}

function gapsOf(query: CredentialQuery, use: RegisteredIntendedUse, at: string): OverAskingPath[] {
  const gaps: OverAskingPath[] = [];
  const registeredTypes: RegisteredCredential[][] = [];
  for (const { type, pointer } of query.types) {
    const registrations = use.credentials.filter(
      (credential) =>
        credential.format === query.format && type !== undefined && (credential.vct ?? credential.doctype) === type,
    );
    if (registrations.length > 0) registeredTypes.push(registrations);
    else
      gaps.push({
        path: `${at}${pointer}`,
        credentialQueryId: query.id,
        kind: 'credential_type',
        message: `${at}${pointer}: credential query "${query.id}" asks for ${type === undefined ? `format ${query.format}` : `${query.format} credential type "${type}"`}, which no registered intended use covers`,
      });
  }
  if (registeredTypes.length === 0) return gaps;
  for (const claim of query.claims) {
    const covered = registeredTypes.every((registrations) =>
      registrations.some((registration) => coversClaim(registration.claims, claim.path)),
    );
    if (!covered)
      gaps.push({
        path: `${at}${claim.pointer}`,
        credentialQueryId: query.id,
        kind: 'claim',
        message: `${at}${claim.pointer}: credential query "${query.id}" asks for claim ${JSON.stringify(claim.path)}, which the registered intended use does not list for its credential type`,
      });
  }
  return gaps;
}

function coversClaim(registered: ClaimPath[] | 'all', requested: ClaimPath): boolean {
  if (registered === 'all') return true;
  return registered.some(
    (path) =>
      path.length <= requested.length &&
      path.every((segment, index) => segment === null || segment === requested[index]),
  );
}

function credentialQueriesOf(query: Record<string, unknown>): CredentialQuery[] {
  const credentials = Array.isArray(query.credentials) ? (query.credentials as unknown[]) : [];
  return credentials.filter(isObject).map((credential) => {
    const format = String(credential.format);
    const meta = isObject(credential.meta) ? credential.meta : {};
    const types: CredentialQuery['types'] =
      format === 'dc+sd-jwt' && Array.isArray(meta.vct_values)
        ? meta.vct_values.map((vct, index) => ({ type: String(vct), pointer: `/meta/vct_values/${index}` }))
        : format === 'mso_mdoc' && typeof meta.doctype_value === 'string'
          ? [{ type: meta.doctype_value, pointer: '/meta/doctype_value' }]
          : [{ type: undefined, pointer: '/format' }];
    const claims = Array.isArray(credential.claims) ? (credential.claims as unknown[]) : [];
    return {
      id: String(credential.id),
      format,
      types,
      claims: claims
        .filter(isObject)
        .flatMap((claim, index) =>
          Array.isArray(claim.path) ? [{ path: claim.path as ClaimPath, pointer: `/claims/${index}/path` }] : [],
        ),
    };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
