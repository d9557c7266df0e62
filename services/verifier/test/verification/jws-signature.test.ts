// The JWS signature check (jws-signature.ts) against tokens signed by jose, an independent library,
// with real keys: what it accepts, and every way it must refuse.
import { createPublicKey, createSecretKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { CompactSign, UnsecuredJWT, type CompactJWSHeaderParameters } from 'jose';
import { describe, expect, it } from 'vitest';
import { decodeJws, verifyJwsSignature } from '../../src/verification/jws-signature.js';

const PAYLOAD = { iss: 'https://issuer.example', nonce: 'n-1' };

function keyPair(type: 'ec' | 'ed25519' | 'rsa', options: Record<string, unknown> = {}) {
  return generateKeyPairSync(type as 'ec', options as { namedCurve: string });
}

async function signed(header: Record<string, unknown>, key: KeyObject | Uint8Array, payload: unknown = PAYLOAD) {
  return new CompactSign(Buffer.from(JSON.stringify(payload)))
    .setProtectedHeader(header as CompactJWSHeaderParameters)
    .sign(key, { crit: { b64: true, exp: true } });
}

const p256 = keyPair('ec', { namedCurve: 'P-256' });
const p384 = keyPair('ec', { namedCurve: 'P-384' });
const ed25519 = keyPair('ed25519');
const rsa = keyPair('rsa', { modulusLength: 2048 });

describe('verifyJwsSignature', () => {
  it('accepts ES256, ES384, EdDSA and PS256 signatures by the matching public key, a JWK-imported one too', async () => {
    await expect(
      verifyJwsSignature(await signed({ alg: 'ES256' }, p256.privateKey), p256.publicKey),
    ).resolves.toBeUndefined();
    const fromJwk = createPublicKey({ key: p256.publicKey.export({ format: 'jwk' }), format: 'jwk' });
    await expect(verifyJwsSignature(await signed({ alg: 'ES256' }, p256.privateKey), fromJwk)).resolves.toBeUndefined();
    await expect(
      verifyJwsSignature(await signed({ alg: 'ES384' }, p384.privateKey), p384.publicKey),
    ).resolves.toBeUndefined();
    await expect(
      verifyJwsSignature(await signed({ alg: 'EdDSA' }, ed25519.privateKey), ed25519.publicKey),
    ).resolves.toBeUndefined();
    await expect(
      verifyJwsSignature(await signed({ alg: 'PS256' }, rsa.privateKey), rsa.publicKey),
    ).resolves.toBeUndefined();
  });

  it('refuses a changed signature, payload or header', async () => {
    const jws = await signed({ alg: 'ES256', typ: 'kb+jwt' }, p256.privateKey);
    const [header, payload, signature] = jws.split('.') as [string, string, string];
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(verifyJwsSignature(`${header}.${payload}.${flipped}`, p256.publicKey)).rejects.toThrow(
      /signature is invalid/,
    );
    const otherPayload = Buffer.from(JSON.stringify({ ...PAYLOAD, nonce: 'n-2' })).toString('base64url');
    await expect(verifyJwsSignature(`${header}.${otherPayload}.${signature}`, p256.publicKey)).rejects.toThrow(
      /signature is invalid/,
    );
    const otherHeader = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'jwt' })).toString('base64url');
    await expect(verifyJwsSignature(`${otherHeader}.${payload}.${signature}`, p256.publicKey)).rejects.toThrow(
      /signature is invalid/,
    );
    await expect(verifyJwsSignature(`${header}.${payload}.`, p256.publicKey)).rejects.toThrow(/signature is invalid/);
  });

  it('refuses a signature by another key of the same curve', async () => {
    const other = keyPair('ec', { namedCurve: 'P-256' });
    await expect(verifyJwsSignature(await signed({ alg: 'ES256' }, other.privateKey), p256.publicKey)).rejects.toThrow(
      /signature is invalid/,
    );
  });

  it('refuses alg none and HS256 (keyed with the public key bytes, or given a secret key)', async () => {
    const none = new UnsecuredJWT(PAYLOAD).encode();
    await expect(verifyJwsSignature(none, p256.publicKey)).rejects.toThrow(/algorithm "none" is not accepted/);
    const spki = p256.publicKey.export({ format: 'der', type: 'spki' });
    const hs256 = await signed({ alg: 'HS256' }, new Uint8Array(spki));
    await expect(verifyJwsSignature(hs256, p256.publicKey)).rejects.toThrow(/algorithm "HS256" is not accepted/);
    const secret = createSecretKey(Buffer.alloc(32, 7));
    await expect(verifyJwsSignature(await signed({ alg: 'ES256' }, p256.privateKey), secret)).rejects.toThrow(
      /does not fit/,
    );
  });

  it('refuses an algorithm of another curve or key type than the key', async () => {
    // Valid signatures, each by the key of the named algorithm, checked against a key that does not fit it.
    await expect(verifyJwsSignature(await signed({ alg: 'ES384' }, p384.privateKey), p256.publicKey)).rejects.toThrow(
      /does not fit algorithm ES384/,
    );
    await expect(verifyJwsSignature(await signed({ alg: 'ES256' }, p256.privateKey), p384.publicKey)).rejects.toThrow(
      /does not fit algorithm ES256/,
    );
    await expect(
      verifyJwsSignature(await signed({ alg: 'EdDSA' }, ed25519.privateKey), p256.publicKey),
    ).rejects.toThrow(/does not fit algorithm EdDSA/);
    await expect(verifyJwsSignature(await signed({ alg: 'PS256' }, rsa.privateKey), p256.publicKey)).rejects.toThrow(
      /does not fit algorithm PS256/,
    );
    // ES256 named over a P-384 signature: the header lies about the curve.
    const lying = await signed({ alg: 'ES256' }, p256.privateKey);
    await expect(verifyJwsSignature(lying, p384.publicKey)).rejects.toThrow(/does not fit/);
  });

  it('refuses a crit header and an RSA key under 2048 bits', async () => {
    await expect(
      verifyJwsSignature(await signed({ alg: 'ES256', crit: ['exp'], exp: 1 }, p256.privateKey), p256.publicKey),
    ).rejects.toThrow(/crit/);
    // jose refuses to sign with a short RSA key: signed here with node:crypto over the same input.
    const short = keyPair('rsa', { modulusLength: 1024 });
    const input = `${Buffer.from(JSON.stringify({ alg: 'PS256' })).toString('base64url')}.${Buffer.from(JSON.stringify(PAYLOAD)).toString('base64url')}`;
    const signature = sign('sha256', Buffer.from(input), { key: short.privateKey, padding: 6, saltLength: 32 });
    await expect(verifyJwsSignature(`${input}.${signature.toString('base64url')}`, short.publicKey)).rejects.toThrow(
      /2048/,
    );
  });
});

describe('decodeJws', () => {
  it('reads the header and payload once and keeps the signing input as presented', async () => {
    const jws = await signed({ alg: 'ES256', typ: 'dc+sd-jwt' }, p256.privateKey);
    const decoded = decodeJws(jws);
    expect(decoded.header).toEqual({ alg: 'ES256', typ: 'dc+sd-jwt' });
    expect(decoded.payload).toEqual(PAYLOAD);
    expect(`${decoded.signingInput}.${decoded.signature}`).toBe(jws);
  });

  it('refuses two or four parts, non-base64url, a header or payload that is not a JSON object', async () => {
    const jws = await signed({ alg: 'ES256' }, p256.privateKey);
    const [header, payload, signature] = jws.split('.') as [string, string, string];
    expect(() => decodeJws(`${header}.${payload}`)).toThrow(/three base64url parts/);
    expect(() => decodeJws(`${jws}.x`)).toThrow(/three base64url parts/);
    expect(() => decodeJws(`${header}.${payload}+.${signature}`)).toThrow(/three base64url parts/);
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    expect(() => decodeJws(`${b64('{')}.${payload}.${signature}`)).toThrow(/protected header is not JSON/);
    expect(() => decodeJws(`${b64('[]')}.${payload}.${signature}`)).toThrow(/protected header is not a JSON object/);
    expect(() => decodeJws(`${header}.${b64('"text"')}.${signature}`)).toThrow(/payload is not a JSON object/);
  });
});
