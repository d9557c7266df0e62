/** What a span may say about a statement: its operation and the table it works on, never its text or values. */
export interface StatementSummary {
  /** `SELECT intents`, `INSERT sessions`, `WITH`…: the span name. */
  name: string;
  operation: string;
  table?: string;
}

const OPERATION = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*([a-z]+)/i;
const TABLE_AFTER: Record<string, RegExp> = {
  SELECT: /\bfrom\s+((?:"[^"]+"|[a-z_][\w$]*)(?:\.(?:"[^"]+"|[a-z_][\w$]*))?)/i,
  INSERT: /\binto\s+((?:"[^"]+"|[a-z_][\w$]*)(?:\.(?:"[^"]+"|[a-z_][\w$]*))?)/i,
  UPDATE: /^\s*update\s+((?:"[^"]+"|[a-z_][\w$]*)(?:\.(?:"[^"]+"|[a-z_][\w$]*))?)/i,
  DELETE: /\bfrom\s+((?:"[^"]+"|[a-z_][\w$]*)(?:\.(?:"[^"]+"|[a-z_][\w$]*))?)/i,
};

/** Statements are fixed texts with `$n` parameters, so a bounded cache holds them all. */
const cache = new Map<string, StatementSummary>();
const CACHE_LIMIT = 2000;

/**
 * The operation and first table of a statement (OpenTelemetry's `db.query.summary`
 * idea), read from its text once. Table names come from the schema, not from input;
 * values are bound parameters and never part of the text the services send.
 */
export function summariseStatement(text: string): StatementSummary {
  const known = cache.get(text);
  if (known) return known;
  const operation = (OPERATION.exec(text)?.[1] ?? 'QUERY').toUpperCase();
  const table = TABLE_AFTER[operation]?.exec(text)?.[1]?.replaceAll('"', '');
  const summary: StatementSummary = {
    name: table ? `${operation} ${table}` : operation,
    operation,
    ...(table ? { table } : {}),
  };
  if (cache.size < CACHE_LIMIT) cache.set(text, summary);
  return summary;
}
