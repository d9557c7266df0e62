import { createHash, webcrypto } from 'node:crypto';
import { CompactSign, type CompactJWSHeaderParameters } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, createPki, NONCE, NOW, NOW_SECONDS, ORIGIN, VCT, type Pki } from './support/fixtures.js';
import { createCa, createCertificate, createLeaf, x509 } from './support/pki.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { didJwk, generateEs256, issueSdJwtVc, presentSdJwtVc } from './support/sd-jwt.js';

let pki: Pki;
let holder: Holder;

beforeAll(async () => {
  pki = await createPki();
  holder = await generateEs256();
});

async function expectCode(vpToken: unknown, code: string, overrides: Parameters<typeof verify>[1] = {}) {
  const result = await verify(pki, { vpToken, ...overrides });
  expect(result).toMatchObject({ ok: false, code });
  return result as { ok: false; code: string; message: string };
}

describe('SD-JWT VC: accepted presentations', () => {
  it('verifies an x5c-signed SD-JWT VC over a redirect flow and returns the disclosed claims', async () => {
    const issued = await issuePid(pki, holder);
    const result = await verify(pki, { vpToken: { pid: [await presentPid(issued, holder)] } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [presentation] = result.presentations;
    expect(presentation).toMatchObject({
      credentialQueryId: 'pid',
      format: 'dc+sd-jwt',
      vct: VCT,
      issuer: pki.issuer.certificate.subject,
      holderBinding: true,
    });
    // The query asks for given_name and age_over_18: family_name, disclosed too, is only named (data minimisation).
    expect(presentation!.claims).toEqual({
      vct: VCT,
      iss: 'https://issuer.example',
      iat: NOW_SECONDS - 3600,
      exp: NOW_SECONDS + 86_400,
      given_name: 'Erika',
      age_over_18: true,
    });
    expect(presentation!.droppedClaims).toEqual([['family_name']]);
    expect(presentation!.validUntil).toBe(new Date((NOW_SECONDS + 86_400) * 1000).toISOString());
  });

  it('accepts the DC API audience origin:<origin>, not the client_id', async () => {
    const issued = await issuePid(pki, holder);
    const flow = { kind: 'dc_api' as const, origin: ORIGIN };
    const good = await verify(pki, {
      flow,
      vpToken: { pid: [await presentPid(issued, holder, { aud: `origin:${ORIGIN}` })] },
    });
    expect(good.ok).toBe(true);
    await expectCode({ pid: [await presentPid(issued, holder, { aud: CLIENT_ID })] }, 'AUDIENCE_MISMATCH', { flow });
  });

  it('trusts an issuer whose did:jwk is an anchor', async () => {
    const issuerKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    const issued = await issueSdJwtVc({
      signingKey: issuerKey.privateKey,
      kid: `${did}#0`,
      claims: { iss: did },
      disclosable: { given_name: 'Erika', age_over_18: true },
      holderPublicJwk: holder.publicJwk,
    });
    const vpToken = { pid: [await presentPid(issued, holder)] };
    const trusted = await verify(pki, { vpToken, trust: { certificates: [], dids: [did] } });
    expect(trusted).toMatchObject({ ok: true, presentations: [{ issuer: did }] });
    await expectCode(vpToken, 'ISSUER_NOT_TRUSTED', { trust: { certificates: [pki.root.pem], dids: [] } });
  });

  it('accepts a presentation without KB-JWT when holder binding is not required, reporting holderBinding false', async () => {
    const issued = await issuePid(pki, holder);
    const query = {
      combine: 'all',
      credentials: [
        { id: 'pid', format: 'dc+sd-jwt', require_cryptographic_holder_binding: false, meta: { vct_values: [VCT] } },
      ],
    };
    const result = await verify(pki, { dcqlQuery: query, vpToken: { pid: [await presentPid(issued, holder, null)] } });
    expect(result).toMatchObject({ ok: true, presentations: [{ holderBinding: false }] });
  });

  it('accepts a vp_token given as its JSON string', async () => {
    const issued = await issuePid(pki, holder);
    const result = await verify(pki, { vpToken: JSON.stringify({ pid: [await presentPid(issued, holder)] }) });
    expect(result.ok).toBe(true);
  });
});

describe('SD-JWT VC: issuer checks', () => {
  it('refuses a bad issuer signature (ISSUER_SIGNATURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const [header, payload, signature] = issued.jwt.split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    const result = await expectCode(
      { pid: [await presentPid({ ...issued, jwt: forged }, holder)] },
      'ISSUER_SIGNATURE_INVALID',
    );
    expect(result.message).toContain('"pid"');
  });

  it('refuses a payload changed after signing (ISSUER_SIGNATURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const [header, payload, signature] = issued.jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const changed = Buffer.from(JSON.stringify({ ...claims, exp: NOW_SECONDS + 10 * 365 * 86_400 })).toString(
      'base64url',
    );
    await expectCode(
      { pid: [await presentPid({ ...issued, jwt: `${header}.${changed}.${signature}` }, holder)] },
      'ISSUER_SIGNATURE_INVALID',
    );
  });

  it('refuses an issuer JWT with alg none, HS256, another key, another curve or a crit header, each validly signed (ISSUER_SIGNATURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const [originalHeader, payload] = issued.jwt.split('.');
    const header = JSON.parse(Buffer.from(originalHeader!, 'base64url').toString()) as Record<string, unknown>;
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    // Signed by jose over the changed header and the same payload, x5c still naming the trusted issuer.
    const signedWith = async (changes: Record<string, unknown>, key: webcrypto.CryptoKey | Uint8Array) => {
      const jws = await new CompactSign(Buffer.from(payload!, 'base64url'))
        .setProtectedHeader({ ...header, ...changes } as CompactJWSHeaderParameters)
        .sign(key, { crit: { exp: true } });
      return presentPid({ ...issued, jwt: jws }, holder);
    };
    const control = await signedWith({}, pki.issuer.keys.privateKey);
    expect((await verify(pki, { vpToken: { pid: [control] } })).ok).toBe(true);
    const none = `${encode({ ...header, alg: 'none' })}.${payload}.`;
    await expectCode({ pid: [await presentPid({ ...issued, jwt: none }, holder)] }, 'ISSUER_SIGNATURE_INVALID');
    // HS256 keyed with the leaf's public key bytes: the classic algorithm-confusion forgery.
    const leafSpki = new Uint8Array(pki.issuer.certificate.publicKey.rawData);
    await expectCode({ pid: [await signedWith({ alg: 'HS256' }, leafSpki)] }, 'ISSUER_SIGNATURE_INVALID');
    const otherP256 = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    await expectCode({ pid: [await signedWith({}, otherP256.privateKey)] }, 'ISSUER_SIGNATURE_INVALID');
    const p384 = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign']);
    await expectCode({ pid: [await signedWith({ alg: 'ES384' }, p384.privateKey)] }, 'ISSUER_SIGNATURE_INVALID');
    await expectCode(
      { pid: [await signedWith({ crit: ['exp'], exp: 1 }, pki.issuer.keys.privateKey)] },
      'ISSUER_SIGNATURE_INVALID',
    );
  });

  it('refuses typ other than dc+sd-jwt (ISSUER_SIGNATURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder, { typ: 'vc+sd-jwt' });
    await expectCode({ pid: [await presentPid(issued, holder)] }, 'ISSUER_SIGNATURE_INVALID');
  });

  it('refuses a tampered disclosure (DISCLOSURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const [salt] = JSON.parse(Buffer.from(issued.disclosures.age_over_18!, 'base64url').toString()) as [string];
    const tampered = Buffer.from(JSON.stringify([salt, 'age_over_18', false])).toString('base64url');
    const result = await expectCode(
      { pid: [await presentPid({ ...issued, disclosures: { ...issued.disclosures, age_over_18: tampered } }, holder)] },
      'DISCLOSURE_INVALID',
    );
    expect(result.message).toContain('not referenced');
  });

  it('refuses a disclosure presented twice (DISCLOSURE_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode(
      { pid: [await presentPid(issued, holder, {}, { extraDisclosures: [issued.disclosures.given_name!] })] },
      'DISCLOSURE_INVALID',
    );
  });

  it('refuses an issuer chained to no anchor (ISSUER_NOT_TRUSTED)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder)] }, 'ISSUER_NOT_TRUSTED', {
      trust: { certificates: [pki.iaca.pem], dids: [] },
    });
  });

  it('refuses a chain through a non-CA intermediate (ISSUER_NOT_TRUSTED)', async () => {
    const notCa = await createCertificate({
      name: 'CN=Not A CA',
      issuer: pki.root,
      ca: false,
      keyUsages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature,
    });
    const leaf = await createLeaf('CN=Issuer Under Non-CA', notCa);
    const issued = await issuePid(pki, holder, { signingKey: leaf.keys.privateKey, x5c: [leaf.x5c, notCa.x5c] });
    const result = await expectCode({ pid: [await presentPid(issued, holder)] }, 'ISSUER_NOT_TRUSTED');
    expect(result.message).toContain('not a CA');
  });

  it('refuses a chain through an expired intermediate (ISSUER_NOT_TRUSTED)', async () => {
    const expired = await createCa('CN=Expired Intermediate', pki.root, {
      notBefore: new Date(NOW.getTime() - 400 * 86_400_000),
      notAfter: new Date(NOW.getTime() - 86_400_000),
    });
    const leaf = await createLeaf('CN=Issuer Under Expired', expired);
    const issued = await issuePid(pki, holder, { signingKey: leaf.keys.privateKey, x5c: [leaf.x5c, expired.x5c] });
    const result = await expectCode({ pid: [await presentPid(issued, holder)] }, 'ISSUER_NOT_TRUSTED');
    expect(result.message).toContain('expired');
  });

  it('refuses an expired credential (CREDENTIAL_EXPIRED) and one not yet valid (CREDENTIAL_NOT_YET_VALID)', async () => {
    const expired = await issuePid(pki, holder, { claims: { iat: NOW_SECONDS - 7200, exp: NOW_SECONDS - 3600 } });
    await expectCode({ pid: [await presentPid(expired, holder)] }, 'CREDENTIAL_EXPIRED');
    const future = await issuePid(pki, holder, { claims: { iat: NOW_SECONDS, nbf: NOW_SECONDS + 3600 } });
    await expectCode({ pid: [await presentPid(future, holder)] }, 'CREDENTIAL_NOT_YET_VALID');
  });
});

describe('SD-JWT VC: key binding', () => {
  it('refuses a wrong nonce (NONCE_MISMATCH)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder, { nonce: 'another-session' })] }, 'NONCE_MISMATCH');
  });

  it('refuses a wrong aud (AUDIENCE_MISMATCH)', async () => {
    const issued = await issuePid(pki, holder);
    const result = await expectCode(
      { pid: [await presentPid(issued, holder, { aud: 'x509_hash:someone-else' })] },
      'AUDIENCE_MISMATCH',
    );
    expect(result.message).toContain(CLIENT_ID);
  });

  it('refuses a stale KB-JWT and one issued in the future (KEY_BINDING_STALE)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder, { iat: NOW_SECONDS - 301 })] }, 'KEY_BINDING_STALE');
    await expectCode({ pid: [await presentPid(issued, holder, { iat: NOW_SECONDS + 120 })] }, 'KEY_BINDING_STALE');
    const withinSkew = await verify(pki, {
      vpToken: { pid: [await presentPid(issued, holder, { iat: NOW_SECONDS + 30 })] },
    });
    expect(withinSkew.ok).toBe(true);
  });

  it('refuses a missing KB-JWT when holder binding is required by default (KEY_BINDING_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder, null)] }, 'KEY_BINDING_INVALID');
  });

  it('refuses a KB-JWT with the wrong typ, the wrong key or the wrong sd_hash (KEY_BINDING_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const other = await generateEs256();
    await expectCode({ pid: [await presentPid(issued, holder, { typ: 'JWT' })] }, 'KEY_BINDING_INVALID');
    await expectCode(
      { pid: [await presentPid(issued, holder, { holderKey: other.privateKey })] },
      'KEY_BINDING_INVALID',
    );
    await expectCode(
      { pid: [await presentPid(issued, holder, { sdHash: createHash('sha256').update('other').digest('base64url') })] },
      'KEY_BINDING_INVALID',
    );
  });

  it('refuses a KB-JWT with alg none, an algorithm the cnf key does not fit, or a crit header, each validly signed (KEY_BINDING_INVALID)', async () => {
    const issued = await issuePid(pki, holder);
    const presentation = await presentPid(issued, holder);
    const cut = presentation.lastIndexOf('~') + 1;
    const [, payload] = presentation.slice(cut).split('.');
    // Signed by the holder's own key over the changed header: only the rule under test can refuse it.
    const signedWith = async (header: object, hash: 'SHA-256' | 'SHA-384') => {
      const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}`;
      const signature = await webcrypto.subtle.sign({ name: 'ECDSA', hash }, holder.privateKey, Buffer.from(input));
      return `${presentation.slice(0, cut)}${input}.${Buffer.from(signature).toString('base64url')}`;
    };
    const control = await signedWith({ alg: 'ES256', typ: 'kb+jwt' }, 'SHA-256');
    expect((await verify(pki, { vpToken: { pid: [control] } })).ok).toBe(true);
    const none = `${presentation.slice(0, cut)}${Buffer.from(JSON.stringify({ alg: 'none', typ: 'kb+jwt' })).toString('base64url')}.${payload}.`;
    await expectCode({ pid: [none] }, 'KEY_BINDING_INVALID');
    await expectCode({ pid: [await signedWith({ alg: 'ES384', typ: 'kb+jwt' }, 'SHA-384')] }, 'KEY_BINDING_INVALID');
    await expectCode(
      { pid: [await signedWith({ alg: 'ES256', typ: 'kb+jwt', crit: ['exp'], exp: 1 }, 'SHA-256')] },
      'KEY_BINDING_INVALID',
    );
  });

  it('refuses a KB-JWT for a credential without cnf (KEY_BINDING_INVALID)', async () => {
    const issued = await issueSdJwtVc({
      signingKey: pki.issuer.keys.privateKey,
      x5c: [pki.issuer.x5c, pki.intermediate.x5c],
      disclosable: { given_name: 'Erika', age_over_18: true },
    });
    await expectCode({ pid: [await presentPid(issued, holder)] }, 'KEY_BINDING_INVALID');
  });
});

describe('SD-JWT VC: transaction data', () => {
  const transactionData = [
    Buffer.from(JSON.stringify({ type: 'payment', credential_ids: ['pid'], amount: '10.00 EUR' })).toString(
      'base64url',
    ),
  ];
  const hash = createHash('sha256').update(transactionData[0]!).digest('base64url');

  it('accepts a KB-JWT whose transaction_data_hashes cover every entry as sent', async () => {
    const issued = await issuePid(pki, holder);
    const result = await verify(pki, {
      transactionData,
      vpToken: { pid: [await presentPid(issued, holder, { transactionDataHashes: [hash] })] },
    });
    expect(result.ok).toBe(true);
  });

  it('refuses a missing or different hash (TRANSACTION_DATA_MISMATCH)', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder)] }, 'TRANSACTION_DATA_MISMATCH', { transactionData });
    const other = createHash('sha256').update('something else').digest('base64url');
    await expectCode(
      { pid: [await presentPid(issued, holder, { transactionDataHashes: [other] })] },
      'TRANSACTION_DATA_MISMATCH',
      { transactionData },
    );
  });
});

describe('SD-JWT VC: DCQL and the order of checks', () => {
  it('refuses a vct the query does not allow (DCQL_NOT_SATISFIED)', async () => {
    const issued = await issuePid(pki, holder, { vct: 'https://credentials.example/other' });
    const result = await expectCode({ pid: [await presentPid(issued, holder)] }, 'DCQL_NOT_SATISFIED');
    expect(result.message).toContain('"pid"');
    expect(result.message).toContain('vct');
  });

  it('refuses a presentation missing a requested claim, naming it (DCQL_NOT_SATISFIED)', async () => {
    const issued = await issuePid(pki, holder);
    const result = await expectCode(
      { pid: [await presentPid(issued, holder, {}, { reveal: ['given_name'] })] },
      'DCQL_NOT_SATISFIED',
    );
    expect(result.message).toContain('age_over_18');
  });

  it('reports the earliest failing check across presentations, whatever their order', async () => {
    const issued = await issuePid(pki, holder);
    const badNonce = await presentPid(issued, holder, { nonce: 'other' });
    const badSignature = await presentPid({ ...issued, jwt: `${issued.jwt.slice(0, -4)}AAAA` }, holder);
    const query = {
      combine: 'all',
      credentials: [
        { id: 'a', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
        { id: 'b', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
      ],
    };
    const result = await expectCode({ a: [badNonce], b: [badSignature] }, 'ISSUER_SIGNATURE_INVALID', {
      dcqlQuery: query,
    });
    expect(result.message).toContain('"b"');
  });

  it('refuses a KB-JWT that is presented by an untrusted issuer before looking at the nonce (ISSUER_NOT_TRUSTED)', async () => {
    const rogueRoot = await createCa('CN=Rogue Root');
    const rogueLeaf = await createLeaf('CN=Rogue Issuer', rogueRoot);
    const issued = await issuePid(pki, holder, {
      signingKey: rogueLeaf.keys.privateKey,
      x5c: [rogueLeaf.x5c, rogueRoot.x5c],
    });
    await expectCode({ pid: [await presentPid(issued, holder, { nonce: 'wrong' })] }, 'ISSUER_NOT_TRUSTED');
  });

  it('keeps the session nonce check exact', async () => {
    const issued = await issuePid(pki, holder);
    await expectCode({ pid: [await presentPid(issued, holder, { nonce: `${NONCE} ` })] }, 'NONCE_MISMATCH');
  });

  it('never accepts a presentation of an unexpected kind', async () => {
    const issued = await issuePid(pki, holder);
    const presentation = await presentSdJwtVc({ issued });
    await expectCode({ pid: [presentation.replace(/~/g, '')] }, 'INVALID_VP_TOKEN');
    await expectCode({ pid: ['not-a-jwt~'] }, 'INVALID_VP_TOKEN');
  });
});
