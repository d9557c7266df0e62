import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importCosePublicKey } from '../../src/verification/cose-key.js';

// The mdoc device key as node:crypto verifies with it (RFC 9053 §7.1-7.2 labels), whatever the
// COSE_Key's optional `alg` (label 3): the signature's protected alg decides (cose-sign1.ts).
function coseKeyOf(jwk: { kty?: string; crv?: string; x?: string; y?: string }, extra: Array<[number, unknown]> = []) {
  const bytes = (text: string | undefined) => new Uint8Array(Buffer.from(text ?? '', 'base64url'));
  const curves: Record<string, number> = { 'P-256': 1, 'P-384': 2, Ed25519: 6 };
  const entries: Array<[number, unknown]> =
    jwk.kty === 'EC'
      ? [
          [1, 2],
          [-1, curves[jwk.crv!]],
          [-2, bytes(jwk.x)],
          [-3, bytes(jwk.y)],
        ]
      : [
          [1, 1],
          [-1, curves[jwk.crv!]],
          [-2, bytes(jwk.x)],
        ];
  return new Map<number, unknown>([...entries, ...extra]);
}

describe('importCosePublicKey', () => {
  it('imports EC2 and OKP keys with or without alg, and they verify what their private halves signed', () => {
    for (const [type, options, hash] of [
      ['ec', { namedCurve: 'P-256' }, 'sha256'],
      ['ec', { namedCurve: 'P-384' }, 'sha384'],
      ['ed25519', {}, null],
    ] as const) {
      const { privateKey, publicKey } = generateKeyPairSync(type as 'ec', options as { namedCurve: string });
      const jwk = publicKey.export({ format: 'jwk' });
      const signature = sign(hash, Buffer.from('device authentication'), privateKey);
      for (const extra of [[], [[3, -7]]] as Array<Array<[number, unknown]>>) {
        const key = importCosePublicKey(coseKeyOf(jwk, extra));
        expect(verify(hash, Buffer.from('device authentication'), key, signature)).toBe(true);
      }
    }
  });

  it('refuses what is not an EC2 or OKP key it knows', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const good = coseKeyOf(publicKey.export({ format: 'jwk' }));
    expect(() => importCosePublicKey({ kty: 2 })).toThrow(/not a COSE_Key map/);
    expect(() => importCosePublicKey(new Map([...good, [1, 4]]))).toThrow(/type 4 is not supported/);
    expect(() => importCosePublicKey(new Map([...good, [-1, 8]]))).toThrow(/curve 8 is not supported/);
    expect(() => importCosePublicKey(new Map([...good].filter(([label]) => label !== -3)))).toThrow(/no y/);
  });
});
