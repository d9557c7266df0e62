import { CompactSign, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistrationCertificate } from '../../src/verification/verify-registration-certificate.js';
import {
  compactOf,
  createTestRegistrar,
  DAY_SECONDS,
  PID_MDOC,
  PID_SD_JWT,
  registrationCertificateHeader,
  registrationCertificatePayload,
  signRegistrationCertificate,
  tamperedPayload,
  type RegistrationCertificateVersion,
  type TestRegistrar,
} from '../support/registration-certificates.js';
import { issue } from '../support/pki.js';

const RP = 'VATDE-123456789';
let registrar: TestRegistrar;
let other: TestRegistrar;

beforeAll(async () => {
  [registrar, other] = await Promise.all([createTestRegistrar('Registrar'), createTestRegistrar('Other Registrar')]);
});

function verify(
  jwt: string,
  options: { relyingPartyIdentifier?: string | undefined; now?: Date; anchors?: TestRegistrar[] } = {},
) {
  return verifyRegistrationCertificate({
    jwt,
    anchors: (options.anchors ?? [registrar]).map((entry) => entry.root.certificate),
    relyingPartyIdentifier: 'relyingPartyIdentifier' in options ? options.relyingPartyIdentifier : RP,
    now: options.now ?? new Date(),
  });
}

describe.each<RegistrationCertificateVersion>(['1.2.1', '1.1.1', 'rc-rp'])(
  'a %s certificate from a trusted registrar',
  (version) => {
    it('is accepted, and says who registered what', async () => {
      const iat = Math.floor(Date.now() / 1000) - 60;
      const jwt = await signRegistrationCertificate({
        registrar,
        version,
        payload: registrationCertificatePayload(version, {
          iat,
          exp: iat + 30 * DAY_SECONDS,
          intendedUseId: 'age-check',
        }),
      });
      const result = await verify(jwt);
      if (!result.ok) throw new Error(`refused: ${result.message}`);
      const certificate = result.registrationCertificate;
      expect(certificate.form).toBe(version === 'rc-rp' ? 'rc-rp' : `ts119475-v${version}`);
      expect(certificate.relyingParty.identifier).toBe(RP);
      expect(certificate.registrar).toEqual({
        subject: 'CN=Registrar Registration Certificates',
        name: 'Registrar Registration Certificates',
        anchorSubject: 'CN=Registrar Root CA',
      });
      expect(certificate.notBefore).toEqual(new Date(iat * 1000));
      expect(certificate.notAfter).toEqual(new Date((iat + 30 * DAY_SECONDS) * 1000));
      const [use] = certificate.intendedUses;
      expect(use!.purpose).toEqual([
        { lang: 'en', value: 'To check your age before selling alcohol' },
        { lang: 'de', value: 'Um vor dem Verkauf von Alkohol Ihr Alter zu prüfen' },
      ]);
      expect(use!.id).toBe(version === 'rc-rp' ? undefined : 'age-check');
      expect(use!.credentials).toEqual([
        {
          format: 'dc+sd-jwt',
          vct: 'urn:eudi:pid:1',
          claims: version === '1.1.1' ? [['given_name'], ['family_name'], ['address']] : PID_SD_JWT.claims,
        },
        {
          format: 'mso_mdoc',
          doctype: 'eu.europa.ec.eudi.pid.1',
          // V1.1.1 paths are strings: the element, in whichever namespace.
          claims: version === '1.1.1' ? [[null, 'age_over_18']] : PID_MDOC.claims,
        },
      ]);
    });

    it('is refused when its relying-party identifier is not the access certificate’s', async () => {
      const jwt = await signRegistrationCertificate({ registrar, version });
      const result = await verify(jwt, { relyingPartyIdentifier: 'VATDE-999999999' });
      expect(result).toMatchObject({ ok: false, reason: 'RELYING_PARTY_MISMATCH' });
      expect(result.ok ? '' : result.message).toContain('"VATDE-999999999"');
    });

    it('is refused when the access certificate in force carries no identifier', async () => {
      const jwt = await signRegistrationCertificate({ registrar, version });
      expect(await verify(jwt, { relyingPartyIdentifier: undefined })).toMatchObject({
        ok: false,
        reason: 'RELYING_PARTY_MISMATCH',
      });
    });

    it('is refused when another registrar signed it', async () => {
      const jwt = await signRegistrationCertificate({ registrar: other, version });
      const result = await verify(jwt);
      expect(result).toMatchObject({ ok: false, reason: 'UNTRUSTED' });
      // …and accepted once that registrar is an anchor too.
      expect((await verify(jwt, { anchors: [registrar, other] })).ok).toBe(true);
    });

    it('is refused when expired, and accepted within the clock skew', async () => {
      const iat = Math.floor(Date.now() / 1000) - 7200;
      const exp = iat + 3600;
      const jwt = await signRegistrationCertificate({
        registrar,
        version,
        payload: registrationCertificatePayload(version, { iat, exp }),
      });
      expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'EXPIRED' });
      expect((await verify(jwt, { now: new Date((exp + 30) * 1000) })).ok).toBe(true);
    });

    it('is refused when not yet valid', async () => {
      const iat = Math.floor(Date.now() / 1000) + 3600;
      const jwt = await signRegistrationCertificate({
        registrar,
        version,
        payload: registrationCertificatePayload(version, { iat }),
      });
      expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'NOT_YET_VALID' });
    });

    it('is refused when its payload was changed after signing', async () => {
      const jwt = await signRegistrationCertificate({ registrar, version });
      const widened = tamperedPayload(jwt, (payload) => {
        (payload.credentials as Array<Record<string, unknown>>).pop();
      });
      expect(await verify(widened)).toMatchObject({ ok: false, reason: 'SIGNATURE_INVALID' });
    });
  },
);

describe('refusals before the signature', () => {
  it.each([
    ['not a JWT', 'not-a-jwt'],
    ['two parts', 'eyJhbGciOiJFUzI1NiJ9.e30'],
    ['a header that is not JSON', `${Buffer.from('{not json').toString('base64url')}.e30.c2ln`],
  ])('%s is MALFORMED', async (_name, jwt) => {
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it('a payload that is not JSON is MALFORMED (once the signature verified)', async () => {
    const jwt = await new CompactSign(new TextEncoder().encode('{not json'))
      .setProtectedHeader(registrationCertificateHeader('1.2.1', registrar) as { alg: string })
      .sign(registrar.signer.keys.privateKey);
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it.each(['JWT', 'oauth-authz-req+jwt', undefined])('typ %s is UNSUPPORTED_TYPE', async (typ) => {
    const jwt = await signRegistrationCertificate({ registrar, header: { typ } });
    const result = await verify(jwt);
    expect(result).toMatchObject({ ok: false, reason: 'UNSUPPORTED_TYPE' });
    expect(result.ok ? [] : result.details).toEqual([
      { path: '/header/typ', message: '/header/typ: must be "rc-wrp+jwt" or "rc-rp+jwt"' },
    ]);
  });

  it('no x5c is INVALID_HEADER', async () => {
    const jwt = await signRegistrationCertificate({ registrar, header: { x5c: undefined, kid: 'registrar-key' } });
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'INVALID_HEADER' });
  });

  it('an x5c entry that is not a certificate is INVALID_HEADER', async () => {
    const jwt = compactOf({ typ: 'rc-wrp+jwt', alg: 'ES256', x5c: ['bm90IGEgY2VydGlmaWNhdGU='] }, '{}');
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'INVALID_HEADER' });
  });

  it('an unsigned certificate (alg none) is refused', async () => {
    const jwt = `${compactOf({ typ: 'rc-wrp+jwt', alg: 'none', x5c: registrar.x5c }, JSON.stringify(registrationCertificatePayload('1.2.1'))).slice(0, -4)}`;
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'MALFORMED' });
    const withSignature = compactOf(
      { typ: 'rc-wrp+jwt', alg: 'none', x5c: registrar.x5c },
      JSON.stringify(registrationCertificatePayload('1.2.1')),
    );
    expect(await verify(withSignature)).toMatchObject({ ok: false, reason: 'SIGNATURE_INVALID' });
  });

  it('a certificate signed with a key other than the x5c leaf’s is SIGNATURE_INVALID', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const jwt = await signRegistrationCertificate({ registrar, signingKey: privateKey as never });
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'SIGNATURE_INVALID' });
  });

  it('a registrar signing certificate that has expired makes it UNTRUSTED', async () => {
    const expiredSigner = await createTestRegistrar('Lapsed Registrar', {
      signerNotBefore: new Date(Date.now() - 20 * DAY_SECONDS * 1000),
      signerNotAfter: new Date(Date.now() - DAY_SECONDS * 1000),
    });
    const jwt = await signRegistrationCertificate({ registrar: expiredSigner });
    const result = await verify(jwt, { anchors: [expiredSigner] });
    expect(result).toMatchObject({ ok: false, reason: 'UNTRUSTED' });
    expect(result.ok ? '' : result.message).toContain('expired');
  });

  it('a chain whose leaf is a CA (a registrar CA signing directly) is UNTRUSTED', async () => {
    const intermediate = await issue({ issuer: registrar.root, name: 'Registrar Intermediate', ca: true });
    const jwt = await signRegistrationCertificate({
      registrar: { ...registrar, signer: intermediate },
      header: { x5c: [Buffer.from(intermediate.certificate.rawData).toString('base64')] },
    });
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'UNTRUSTED' });
  });
});

describe('header and payload checked for the version they declare', () => {
  it('a V1.2.1 payload without registry_uri and with a lower-case country is INVALID_PAYLOAD, each problem named', async () => {
    const payload = registrationCertificatePayload('1.2.1');
    delete payload.registry_uri;
    payload.country = 'de';
    const result = await verify(await signRegistrationCertificate({ registrar, payload }));
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_PAYLOAD' });
    expect(result.ok ? [] : result.details.map((detail) => detail.path).sort()).toEqual([
      '/payload',
      '/payload/country',
    ]);
    expect(result.ok ? '' : result.message).toContain('ETSI TS 119 475 V1.2.1');
  });

  it('a V1.2.1 certificate valid for more than 12 months is INVALID_PAYLOAD (GEN-5.2.4-08)', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const payload = registrationCertificatePayload('1.2.1', { iat, exp: iat + 400 * DAY_SECONDS });
    const result = await verify(await signRegistrationCertificate({ registrar, payload }));
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_PAYLOAD', details: [{ path: '/payload/exp' }] });
  });

  it('a V1.2.1 header with an algorithm outside JAdES (ES256K) is refused by the signature check', async () => {
    const jwt = compactOf({ typ: 'rc-wrp+jwt', alg: 'ES256K', x5c: registrar.x5c }, '{}');
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'SIGNATURE_INVALID' });
  });

  it('an EdDSA signature is V1.2.1 only: a V1.1.1 certificate signed with it is INVALID_HEADER', async () => {
    const edRegistrarSigner = await issue({
      issuer: registrar.root,
      name: 'Ed Registrar',
      ca: false,
      keyAlgorithm: 'ED25519',
    });
    const edRegistrar = {
      ...registrar,
      signer: edRegistrarSigner,
      x5c: [Buffer.from(edRegistrarSigner.certificate.rawData).toString('base64')],
    };
    const v121 = await signRegistrationCertificate({ registrar: edRegistrar, header: { alg: 'EdDSA' } });
    expect((await verify(v121)).ok).toBe(true);
    const v111 = await signRegistrationCertificate({
      registrar: edRegistrar,
      version: '1.1.1',
      header: { alg: 'EdDSA' },
    });
    expect(await verify(v111)).toMatchObject({
      ok: false,
      reason: 'INVALID_HEADER',
      details: [{ path: '/header/alg' }],
    });
  });

  it('a V1.1.1 service provider without credentials is INVALID_PAYLOAD', async () => {
    const payload = registrationCertificatePayload('1.1.1');
    delete payload.credentials;
    const result = await verify(await signRegistrationCertificate({ registrar, version: '1.1.1', payload }));
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_PAYLOAD', details: [{ path: '/payload/credentials' }] });
  });

  it('a V1.1.1 header with a cty other than b64 is INVALID_HEADER', async () => {
    const jwt = await signRegistrationCertificate({ registrar, version: '1.1.1', header: { cty: 'json' } });
    expect(await verify(jwt)).toMatchObject({
      ok: false,
      reason: 'INVALID_HEADER',
      details: [{ path: '/header/cty' }],
    });
  });

  it('an rc-rp+jwt certificate without credentials is INVALID_PAYLOAD', async () => {
    const payload = registrationCertificatePayload('rc-rp');
    delete payload.credentials;
    const result = await verify(await signRegistrationCertificate({ registrar, version: 'rc-rp', payload }));
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_PAYLOAD' });
  });
});

describe('validity window', () => {
  it('without exp, the certificate is valid until its signing chain ends', async () => {
    const payload = registrationCertificatePayload('1.2.1', { exp: null });
    const result = await verify(await signRegistrationCertificate({ registrar, payload }));
    if (!result.ok) throw new Error(result.message);
    expect(result.registrationCertificate.notAfter).toEqual(registrar.signer.certificate.notAfter);
  });

  it('an exp after the signing chain ends is cut to the chain’s end', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const shortSigner = await createTestRegistrar('Short Registrar', {
      signerNotAfter: new Date((iat + 10 * DAY_SECONDS) * 1000),
    });
    const payload = registrationCertificatePayload('1.2.1', { iat, exp: iat + 100 * DAY_SECONDS });
    const result = await verify(await signRegistrationCertificate({ registrar: shortSigner, payload }), {
      anchors: [shortSigner],
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.registrationCertificate.notAfter).toEqual(shortSigner.signer.certificate.notAfter);
  });

  it('nbf in the future makes a V1.2.1 certificate NOT_YET_VALID', async () => {
    const payload = { ...registrationCertificatePayload('1.2.1'), nbf: Math.floor(Date.now() / 1000) + 3600 };
    expect(await verify(await signRegistrationCertificate({ registrar, payload }))).toMatchObject({
      ok: false,
      reason: 'NOT_YET_VALID',
    });
  });
});

describe('intermediaries', () => {
  it('a V1.2.1 certificate with an intermediary binds to the intermediary’s access certificate', async () => {
    const payload = {
      ...registrationCertificatePayload('1.2.1'),
      intermediary: { sub: 'LEIXG-529900T8BM49AURSDO55', sname: 'Tessera Hosting' },
    };
    const jwt = await signRegistrationCertificate({ registrar, payload });
    expect(await verify(jwt)).toMatchObject({
      ok: false,
      reason: 'RELYING_PARTY_MISMATCH',
      details: [{ path: '/payload/intermediary/sub' }],
    });
    const result = await verify(jwt, { relyingPartyIdentifier: 'LEIXG-529900T8BM49AURSDO55' });
    if (!result.ok) throw new Error(result.message);
    expect(result.registrationCertificate.relyingParty.identifier).toBe(RP);
    expect(result.registrationCertificate.intermediary).toEqual({
      identifier: 'LEIXG-529900T8BM49AURSDO55',
      name: 'Tessera Hosting',
    });
  });

  it('a V1.1.1 certificate binds to any identifier of sub.id', async () => {
    const payload = registrationCertificatePayload('1.1.1');
    (payload.sub as { id: unknown[] }).id.push({ type: 'http://data.europa.eu/eudi/id/LEI', identifier: 'LEIXG-1' });
    const jwt = await signRegistrationCertificate({ registrar, version: '1.1.1', payload });
    expect((await verify(jwt, { relyingPartyIdentifier: 'LEIXG-1' })).ok).toBe(true);
  });
});
