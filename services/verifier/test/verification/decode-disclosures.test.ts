// Disclosures decoded and hashed once (decode-disclosures.ts), against digests computed here independently.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeDisclosures } from '../../src/verification/decode-disclosures.js';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('decodeDisclosures', () => {
  it('decodes object-property and array-element disclosures with their digests over the presented bytes', () => {
    // RFC 9901 §5.1's example disclosure of given_name, presented as the RFC encodes it.
    const given = 'WyIyR0xDNDJzS1F2ZUNmR2ZyeU5STjl3IiwgImdpdmVuX25hbWUiLCAiSm9obiJd';
    const element = encode(['salt-2', 'DE']);
    const [first, second] = decodeDisclosures([given, element], 'sha-256');
    expect(first).toMatchObject({
      digest: 'jsu9yVulwQQlhFlM_3JlzMaSFzglhQG0DpfayQwLUK4',
      name: 'given_name',
      value: 'John',
    });
    expect(second).toMatchObject({ digest: createHash('sha256').update(element).digest('base64url'), value: 'DE' });
    expect(second).not.toHaveProperty('name');
    const [sha512] = decodeDisclosures([given], 'sha-512');
    expect(sha512!.digest).toBe(createHash('sha512').update(given).digest('base64url'));
  });

  it('refuses an unsupported _sd_alg, non-base64url, non-JSON, wrong arity and a non-string claim name', () => {
    expect(() => decodeDisclosures([encode(['s', 'a', 1])], 'md5')).toThrow(/_sd_alg "md5"/);
    expect(() => decodeDisclosures(['', encode(['s', 1])], 'sha-256')).toThrow(/not base64url/);
    expect(() => decodeDisclosures([`${encode(['s', 1])}=`], 'sha-256')).toThrow(/not base64url/);
    expect(() => decodeDisclosures([Buffer.from('[1,').toString('base64url')], 'sha-256')).toThrow(/not JSON/);
    expect(() => decodeDisclosures([encode({ salt: 's' })], 'sha-256')).toThrow(/two or three/);
    expect(() => decodeDisclosures([encode(['s', 'a', 1, 2])], 'sha-256')).toThrow(/two or three/);
    expect(() => decodeDisclosures([encode(['s', 7, 1])], 'sha-256')).toThrow(/non-string/);
  });
});
