import { CompactEncrypt, CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptAuthorizationResponse } from '../../src/verification/index.js';

let sessionPrivate: JWK;
let sessionPublic: JWK;
let otherPublic: JWK;

beforeAll(async () => {
  const session = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  sessionPrivate = { ...(await exportJWK(session.privateKey)), kid: 'session-key', alg: 'ECDH-ES', use: 'enc' };
  sessionPublic = { ...(await exportJWK(session.publicKey)), kid: 'session-key', alg: 'ECDH-ES', use: 'enc' };
  const other = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  otherPublic = { ...(await exportJWK(other.publicKey)), kid: 'session-key' };
});

// The wallet side: encrypt the response parameters to the verifier's key (OpenID4VP 1.0 §8.3).
async function encrypt(payload: unknown, recipient: JWK, header: Record<string, unknown> = {}): Promise<string> {
  const { importJWK } = await import('jose');
  const key = await importJWK(recipient, 'ECDH-ES');
  return new CompactEncrypt(Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: recipient.kid, ...header } as never)
    .encrypt(key);
}

describe('decryptAuthorizationResponse', () => {
  it('decrypts an ECDH-ES response for the session key, A256GCM and A128GCM', async () => {
    const payload = { vp_token: { pid: ['ey…'] }, state: 'xyz' };
    expect(
      await decryptAuthorizationResponse({ jwe: await encrypt(payload, sessionPublic), privateJwk: sessionPrivate }),
    ).toEqual({ ok: true, payload, enc: 'A256GCM' });
    expect(
      await decryptAuthorizationResponse({
        jwe: await encrypt(payload, sessionPublic, { enc: 'A128GCM' }),
        privateJwk: sessionPrivate,
      }),
    ).toMatchObject({ ok: true, enc: 'A128GCM' });
  });

  it('fails for a JWE made for another key', async () => {
    const result = await decryptAuthorizationResponse({
      jwe: await encrypt({ vp_token: {} }, otherPublic),
      privateJwk: sessionPrivate,
    });
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('cannot be decrypted') });
  });

  it('fails for another kid, another alg or enc, a signed-only JWT and junk', async () => {
    expect(
      await decryptAuthorizationResponse({
        jwe: await encrypt({ vp_token: {} }, sessionPublic, { kid: 'other' }),
        privateJwk: sessionPrivate,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await decryptAuthorizationResponse({
        jwe: await encrypt({ vp_token: {} }, sessionPublic, { enc: 'A192GCM' }),
        privateJwk: sessionPrivate,
      }),
    ).toMatchObject({ ok: false });
    const { importJWK } = await import('jose');
    const wrapped = await new CompactEncrypt(Buffer.from('{"vp_token":{}}'))
      .setProtectedHeader({ alg: 'ECDH-ES+A128KW', enc: 'A128GCM', kid: 'session-key' })
      .encrypt(await importJWK(sessionPublic, 'ECDH-ES+A128KW'));
    expect(await decryptAuthorizationResponse({ jwe: wrapped, privateJwk: sessionPrivate })).toMatchObject({
      ok: false,
      message: expect.stringContaining('ECDH-ES'),
    });
    const signing = await generateKeyPair('ES256');
    const jws = await new CompactSign(Buffer.from('{"vp_token":{}}'))
      .setProtectedHeader({ alg: 'ES256' })
      .sign(signing.privateKey);
    expect(await decryptAuthorizationResponse({ jwe: jws, privateJwk: sessionPrivate })).toMatchObject({ ok: false });
    expect(await decryptAuthorizationResponse({ jwe: 'a.b.c.d.e', privateJwk: sessionPrivate })).toMatchObject({
      ok: false,
    });
    expect(await decryptAuthorizationResponse({ jwe: { response: 'x' }, privateJwk: sessionPrivate })).toMatchObject({
      ok: false,
    });
  });

  it('fails when the plaintext is not a response object', async () => {
    expect(
      await decryptAuthorizationResponse({ jwe: await encrypt('not json', sessionPublic), privateJwk: sessionPrivate }),
    ).toMatchObject({ ok: false });
    expect(
      await decryptAuthorizationResponse({
        jwe: await encrypt({ state: 'x' }, sessionPublic),
        privateJwk: sessionPrivate,
      }),
    ).toMatchObject({ ok: false });
  });
});
