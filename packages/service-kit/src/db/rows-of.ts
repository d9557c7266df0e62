/**
 * The rows of a `db.execute()` result: postgres-js answers an array of rows,
 * PGlite an object with `rows`. Raw statements (CTEs the query builder cannot
 * express) read their answer through this, whichever driver runs.
 */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return [...result] as Row[];
  return ((result as { rows?: Row[] } | undefined)?.rows ?? []) as Row[];
}
