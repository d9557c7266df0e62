import { DcqlQuery } from 'dcql';
import type { ErrorDetail } from '@tessera/contracts';

/** Where the verifier reports a template's query problems (`INVALID_DCQL` details), so both kinds line up. */
export const QUERY_POINTER = '/templateJson/dcql/query';

export interface DcqlDraftCheck {
  /** The query, when the text is a JSON object. */
  query?: Record<string, unknown>;
  /** Each problem at its JSON Pointer under QUERY_POINTER; empty when the draft looks right. */
  problems: ErrorDetail[];
}

/**
 * The editor's check as the person types: the text must be a JSON object with the
 * platform's `combine: "all"`, and the rest must be a DCQL query the `dcql` library
 * (the one the verifier uses) accepts. The verifier's own rules (formats, `meta`, mdoc
 * paths) are checked by the verifier when the template is saved; its problems then
 * appear at the same paths.
 */
export function checkDcqlDraft(text: string): DcqlDraftCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problems: [{ path: QUERY_POINTER, message: `Not JSON yet: ${(error as Error).message}` }] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problems: [{ path: QUERY_POINTER, message: 'The query must be a JSON object.' }] };
  const query = parsed as Record<string, unknown>;
  const problems: ErrorDetail[] = [];
  if (query.combine !== 'all')
    problems.push({
      path: `${QUERY_POINTER}/combine`,
      message: 'must be "all" (the only value the platform supports)',
    });
  const { combine: _combine, ...walletQuery } = query;
  problems.push(...libraryProblems(walletQuery));
  return { query, problems };
}

/** The query as the wallet receives it: DCQL has no `combine`, which stays in the stored template. */
export function walletQueryOf(query: Record<string, unknown>): Record<string, unknown> {
  const { combine: _combine, ...rest } = query;
  return rest;
}

function libraryProblems(query: Record<string, unknown>): ErrorDetail[] {
  let parsed: DcqlQuery.Output;
  try {
    parsed = DcqlQuery.parse(query as DcqlQuery.Input);
  } catch (error) {
    const issues = (error as { issues?: Array<{ message: string; path?: Array<{ key: unknown }> }> }).issues;
    if (!Array.isArray(issues)) return [{ path: QUERY_POINTER, message: messageOf(error) }];
    return issues.map((issue) => ({
      path: `${QUERY_POINTER}${(issue.path ?? []).map((item) => `/${String(item.key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`,
      message: issue.message,
    }));
  }
  try {
    DcqlQuery.validate(parsed);
    return [];
  } catch (error) {
    return [{ path: QUERY_POINTER, message: messageOf(error) }];
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'is not a valid DCQL query';
}

/** A starting point for a new template: an SD-JWT VC age check. */
export const EXAMPLE_QUERY = {
  combine: 'all',
  credentials: [
    {
      id: 'age',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['https://example.eu/age'] },
      claims: [{ path: ['age_over_18'] }],
    },
  ],
};
