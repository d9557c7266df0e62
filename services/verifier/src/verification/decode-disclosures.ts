import { createHash } from 'node:crypto';
import { Disclosure } from '@sd-jwt/utils';
import type { DisclosureEntry } from './check-disclosures.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const HASHES: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

/** A presented disclosure: its digest (over the encoded bytes as presented, RFC 9901 §4.2.3) and its decoded content. */
export interface DecodedDisclosure extends DisclosureEntry {
  /** The library's form, for rebuilding the claims (`@sd-jwt/decode` unpackObj). */
  disclosure: Disclosure;
}

/**
 * Decodes the disclosures of an SD-JWT (the `~` segments between the issuer JWT and the KB-JWT)
 * and hashes each once with `_sd_alg` (sha-256/384/512): the digests are what checkDisclosures
 * matches and what the claims are rebuilt from, so no second pass hashes them again.
 * A disclosure must be base64url of a JSON array `[salt, value]` or `[salt, name, value]` with a
 * string name. Throws a sentence.
 */
export function decodeDisclosures(encoded: readonly string[], sdAlg: string): DecodedDisclosure[] {
  const hash = HASHES[sdAlg];
  if (!hash) throw new Error(`_sd_alg ${JSON.stringify(sdAlg)} is not supported`);
  return encoded.map((segment) => {
    if (!BASE64URL.test(segment)) throw new Error('a disclosure is not base64url');
    let item: unknown;
    try {
      item = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    } catch {
      throw new Error('a disclosure is not JSON');
    }
    if (!Array.isArray(item) || (item.length !== 2 && item.length !== 3))
      throw new Error('a disclosure is not an array of two or three elements');
    if (item.length === 3 && typeof item[1] !== 'string')
      throw new Error('a disclosure names its claim with a non-string');
    const digest = createHash(hash).update(segment, 'ascii').digest('base64url');
    const disclosure = new Disclosure(item as ConstructorParameters<typeof Disclosure>[0], {
      digest,
      encoded: segment,
    });
    return {
      digest,
      ...(item.length === 3 ? { name: item[1] as string } : {}),
      value: item.length === 3 ? item[2] : item[1],
      disclosure,
    };
  });
}
