import { inflateSync } from 'node:zlib';

export interface ReadStatusListEntryOptions {
  /** `status_list.lst`: base64url of the ZLIB-compressed (RFC 1950) byte array. */
  lst: string;
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
  if (!/^[A-Za-z0-9_-]+$/.test(options.lst)) throw new Error('lst is not base64url');
  const bytes = inflateSync(Buffer.from(options.lst, 'base64url'), { maxOutputLength: options.maxInflatedBytes });
  const bitOffset = idx * bits;
  const byte = bytes[Math.floor(bitOffset / 8)];
  if (byte === undefined)
    throw new Error(`index ${idx} is outside the status list (${(bytes.length * 8) / bits} entries)`);
  return (byte >> (bitOffset % 8)) & ((1 << bits) - 1);
}
