/**
 * mdoc element values as JSON (VERIFIER.md, verifier-presentation-response):
 * dates as ISO strings (full-date stays `YYYY-MM-DD`), byte strings as
 * base64url, maps as objects, other CBOR tags by their content.
 */
export function mdocValueToJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64url');
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(mdocValueToJson);
  if (value instanceof Map) {
    return Object.fromEntries([...value.entries()].map(([key, entry]) => [String(key), mdocValueToJson(entry)]));
  }
  if (typeof value === 'object') {
    // cbor-x Tag and @auth0/mdl DataItem carry their content in `value` / `data`.
    const tagged = value as { tag?: unknown; value?: unknown; data?: unknown };
    if (typeof tagged.tag === 'number' && 'value' in tagged) return mdocValueToJson(tagged.value);
    if ('data' in tagged && 'buffer' in tagged) return mdocValueToJson(tagged.data);
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, mdocValueToJson(entry)]));
  }
  return value;
}
