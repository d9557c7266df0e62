import { inflateSync } from 'node:zlib';

export interface ReadStatusListEntryOptions {
  /**
   * `status_list.lst`: the ZLIB-compressed (RFC 1950) byte array, as base64url text (the
   * JWT form) or as the bytes themselves (the CWT form's byte string).
   */
  lst: string | Uint8Array;
  /** `status_list.bits`: 1, 2, 4 or 8. */
  bits: number;
  idx: number;
  /** Largest decompressed size accepted (a small token must not inflate into a huge buffer). */
  maxInflatedBytes: number;
}

/**
 * Reads entry `idx` of a Token Status List (draft-ietf-oauth-status-list §4.1):
 * statuses are packed least significant bit first within each byte, `bits`
 * bits each. Throws on a malformed list or an index outside it.
 */
export function readStatusListEntry(options: ReadStatusListEntryOptions): number {
  const { bits, idx } = options;
  if (![1, 2, 4, 8].includes(bits)) throw new Error(`bits must be 1, 2, 4 or 8, not ${String(bits)}`);
  if (!Number.isSafeInteger(idx) || idx < 0) throw new Error('the status index is not a non-negative integer');
  let compressed: Uint8Array;
  if (typeof options.lst === 'string') {
    if (!/^[A-Za-z0-9_-]+$/.test(options.lst)) throw new Error('lst is not base64url');
    compressed = Buffer.from(options.lst, 'base64url');
  } else compressed = options.lst;
  // The cap is zlib's own output limit: a compression bomb stops there.
  const bytes = inflateSync(compressed, { maxOutputLength: options.maxInflatedBytes });
  const bitOffset = idx * bits;
  const byte = bytes[Math.floor(bitOffset / 8)];
  if (byte === undefined)
    throw new Error(`index ${idx} is outside the status list (${(bytes.length * 8) / bits} entries)`);
  return (byte >> (bitOffset % 8)) & ((1 << bits) - 1);
}
