import { DcqlQuery } from 'dcql';

export type LoadDcqlQueryResult = { ok: true; query: DcqlQuery.Output } | { ok: false; message: string };

/**
 * The stored query as the `dcql` library takes it: the template keeps the
 * spec's `combine` (VERIFIER.md), which DCQL 1.0 does not have, so it is
 * stripped before parsing.
 */
export function loadDcqlQuery(stored: unknown): LoadDcqlQueryResult {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    return { ok: false, message: 'the DCQL query is not an object' };
  const { combine: _combine, ...query } = stored as Record<string, unknown>;
  try {
    const parsed = DcqlQuery.parse(query as DcqlQuery.Input);
    DcqlQuery.validate(parsed);
    return { ok: true, query: parsed };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'the DCQL query is invalid' };
  }
}
