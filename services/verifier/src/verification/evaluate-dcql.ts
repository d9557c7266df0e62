import { DcqlPresentationResult, type DcqlCredentialPresentation, type DcqlQuery } from 'dcql';
import { authorityKeyIds } from './authority-key-ids.js';
import { CheckRow, describeError, failure, type CheckFailure } from './check-order.js';
import type { VerifiedCredential } from './verified-credential.js';

export interface CredentialSetOutcome {
  options: string[][];
  required: boolean;
  /** 0-based index of the first option the presentations satisfy; absent when an optional set is not satisfied. */
  satisfiedOption?: number;
}

export interface EvaluateDcqlOptions {
  query: DcqlQuery.Output;
  /** What was actually verified, in vp_token order. */
  credentials: VerifiedCredential[];
}

/** A DCQL claims path: object keys, array indexes, `null` for every element (DCQL §7). */
export type ClaimsPathPattern = Array<string | number | null>;

/**
 * Which of a credential's claims its query asked for, as the `dcql` library
 * matched them: every claim when the query names none, the claims of the
 * satisfied claim set (the first in the query's order when several are), or
 * none when the credential matched no claim set of its query.
 */
export type ClaimSelection = { kind: 'all' } | { kind: 'paths'; paths: ClaimsPathPattern[] } | { kind: 'none' };

export type EvaluateDcqlResult =
  | { ok: true; credentialSets?: CredentialSetOutcome[]; selections: ClaimSelection[] }
  | { ok: false; failure: CheckFailure };

/**
 * DCQL evaluation over verified data only (never the wallet's claims about
 * itself), with the `dcql` library: meta (`vct_values`, `doctype_value`),
 * `claims`, `claim_sets`, `values`, holder binding, `trusted_authorities`
 * (type `aki`, against the key identifiers of the issuer's validated path:
 * `authority-key-ids.ts`) and `credential_sets`.
 * Every presented credential must match its query; the message names the
 * first unmet part. On success it also tells, per credential (in the order
 * given), which claims the query asked for (`selections`), for minimisation.
 */
export function evaluateDcql(options: EvaluateDcqlOptions): EvaluateDcqlResult {
  const unmet = (message: string, credentialQueryId?: string): EvaluateDcqlResult => ({
    ok: false,
    failure: failure(CheckRow.DCQL, 'DCQL_NOT_SATISFIED', message, credentialQueryId),
  });
  const record: Record<string, DcqlCredentialPresentation[]> = {};
  for (const credential of options.credentials) {
    (record[credential.credentialQueryId] ??= []).push(
      toDcqlCredential(credential, askedForAuthorities(options.query, credential.credentialQueryId)),
    );
  }
  let result: DcqlPresentationResult;
  try {
    result = DcqlPresentationResult.fromDcqlPresentation(record, { dcqlQuery: options.query });
  } catch (error) {
    return unmet(`The presentations cannot be evaluated against the DCQL query: ${describeError(error)}.`);
  }
  const sets = options.query.credential_sets?.map((set, index): CredentialSetOutcome => {
    const matching = result.credential_sets?.[index]?.matching_options ?? [];
    const satisfied = set.options.findIndex((option) => matching.some((candidate) => sameOption(candidate, option)));
    return {
      options: set.options.map((option) => [...option]),
      required: set.required !== false,
      ...(satisfied >= 0 ? { satisfiedOption: satisfied } : {}),
    };
  });
  if (result.can_be_satisfied)
    return { ok: true, ...(sets ? { credentialSets: sets } : {}), selections: selectClaims(options, result) };

  for (const [id, match] of Object.entries(result.credential_matches)) {
    const failed = match.failed_credentials?.[0];
    if (!failed) continue;
    if (!failed.meta.success)
      return unmet(
        `Credential query "${id}" is not satisfied: ${firstIssue(failed.meta) ?? 'its type does not match'}.`,
        id,
      );
    if (!failed.claims.success)
      return unmet(
        `Credential query "${id}" is not satisfied: ${describeFailedClaims(options.query, id, failed.claims)}.`,
        id,
      );
    if (!failed.trusted_authorities.success)
      return unmet(
        `Credential query "${id}" is not satisfied: its issuer matches none of the trusted_authorities.`,
        id,
      );
  }
  const unmetSet = sets?.findIndex((set) => set.required && set.satisfiedOption === undefined) ?? -1;
  if (sets && unmetSet >= 0) {
    const described = sets[unmetSet]!.options.map((option) => `[${option.join(', ')}]`).join(' or ');
    return unmet(`Required credential set ${unmetSet} (${described}) is not satisfied.`);
  }
  const missing = options.query.credentials.find((credential) => !record[credential.id]);
  if (missing) return unmet(`Credential query "${missing.id}" was not presented.`, missing.id);
  return unmet('The presentations do not satisfy the DCQL query.');
}

/** Each credential's requested claims, from the library's per-credential match (`input_credential_index` counts within its query id). */
function selectClaims(options: EvaluateDcqlOptions, result: DcqlPresentationResult): ClaimSelection[] {
  const seen = new Map<string, number>();
  return options.credentials.map((credential): ClaimSelection => {
    const index = seen.get(credential.credentialQueryId) ?? 0;
    seen.set(credential.credentialQueryId, index + 1);
    const query = options.query.credentials.find((candidate) => candidate.id === credential.credentialQueryId);
    const match = result.credential_matches[credential.credentialQueryId]?.valid_credentials?.find(
      (candidate) => candidate.input_credential_index === index,
    );
    if (!query || !match) return { kind: 'none' };
    const claims = (query.claims ?? []) as Array<{ path?: ClaimsPathPattern; namespace?: string; claim_name?: string }>;
    if (claims.length === 0) return { kind: 'all' };
    const satisfied = [...match.claims.valid_claim_sets].sort(
      (left, right) => (left.claim_set_index ?? 0) - (right.claim_set_index ?? 0),
    )[0];
    if (!satisfied) return { kind: 'none' };
    const indexes = satisfied.valid_claim_indexes ?? claims.map((_claim, claimIndex) => claimIndex);
    return { kind: 'paths', paths: indexes.map((claimIndex) => pathOf(claims[claimIndex]!)) };
  });
}

function pathOf(claim: { path?: ClaimsPathPattern; namespace?: string; claim_name?: string }): ClaimsPathPattern {
  return claim.path ?? [claim.namespace ?? '', claim.claim_name ?? ''];
}

/** What the library reports of a credential's unmet claims: the query's claim indexes, never the values. */
interface FailedClaims {
  failed_claims?: ReadonlyArray<{ claim_index: number }>;
  failed_claim_sets?: ReadonlyArray<{ failed_claim_indexes?: readonly number[] }>;
}

/**
 * Which of the query's claims the credential did not satisfy, named by path only.
 * The library's own messages quote the value it received ("… to be 'X' but
 * received 'Erika'"), and this message is logged, kept with the session and sent
 * to the wallet, the relying party and webhooks' readers: no claim value may be in
 * it (issue 15, item 5).
 */
function describeFailedClaims(query: DcqlQuery.Output, credentialQueryId: string, claims: FailedClaims): string {
  const claimQueries = (query.credentials.find((credential) => credential.id === credentialQueryId)?.claims ??
    []) as Array<{ path?: ClaimsPathPattern; namespace?: string; claim_name?: string }>;
  const indexes = new Set<number>([
    ...(claims.failed_claims ?? []).map((claim) => claim.claim_index),
    ...(claims.failed_claim_sets ?? []).flatMap((set) => set.failed_claim_indexes ?? []),
  ]);
  const paths = [...indexes]
    .sort((left, right) => left - right)
    .flatMap((index) => (claimQueries[index] ? [JSON.stringify(pathOf(claimQueries[index]))] : []));
  if (paths.length === 0) return 'its claims do not match';
  return `${paths.length === 1 ? 'claim' : 'claims'} ${paths.join(', ')} missing or without a requested value`;
}

/** Whether the credential's query names trusted authorities: only then are its key identifiers read. */
function askedForAuthorities(query: DcqlQuery.Output, credentialQueryId: string): boolean {
  return query.credentials.some(
    (credential) => credential.id === credentialQueryId && (credential.trusted_authorities?.length ?? 0) > 0,
  );
}

function toDcqlCredential(credential: VerifiedCredential, withAuthority: boolean): DcqlCredentialPresentation {
  const keyIds = withAuthority ? authorityKeyIds(credential.issuerTrust) : [];
  // Without key identifiers (a DID issuer) the credential names no authority, so it matches no `aki` entry.
  const authority =
    keyIds.length > 0 ? { authority: { type: 'aki' as const, values: keyIds as [string, ...string[]] } } : {};
  if (credential.format === 'mso_mdoc') {
    return {
      credential_format: 'mso_mdoc',
      doctype: credential.doctype ?? '',
      namespaces: credential.claims as Record<string, Record<string, unknown>>,
      cryptographic_holder_binding: credential.holderBinding,
      ...authority,
    };
  }
  return {
    credential_format: 'dc+sd-jwt',
    vct: credential.vct ?? '',
    claims: credential.claims as never,
    cryptographic_holder_binding: credential.holderBinding,
    ...authority,
  };
}

function sameOption(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** The first message in the library's flattened valibot issues. */
function firstIssue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstIssue(item);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const container = value as Record<string, unknown>;
  for (const key of ['issues', 'failed_claim_sets', 'failed_claims']) {
    if (key in container) {
      const found = firstIssue(container[key]);
      if (found) return found;
    }
  }
  for (const [key, entry] of Object.entries(container)) {
    if (key === 'output' || key === 'success') continue;
    const found = firstIssue(entry);
    if (found) return found;
  }
  return undefined;
}
