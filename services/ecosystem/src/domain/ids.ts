const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * True for a canonical UUID. Path ids that fail this are answered like unknown ids
 * (404), so a malformed id never reaches a `uuid` column.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
