const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids are UUIDs: anything else names no record, so callers answer 404 without asking
 * the database (a uuid column would reject it). Stricter than the JSON Schema `uuid`
 * format, which also admits a `urn:uuid:` prefix.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
