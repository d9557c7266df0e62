import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG, type MemberCall } from '../support/management.js';
import {
  createTestRegistrar,
  DAY_SECONDS,
  registrationCertificatePayload,
  signRegistrationCertificate,
  tamperedPayload,
  type TestRegistrar,
} from '../support/registration-certificates.js';
import {
  createAccessCertificateCa,
  importAccessCertificate,
  RELYING_PARTY_ID,
  type AccessCertificateCa,
} from '../support/relying-party.js';
import { storedRegistrationCertificates } from '../support/stored-rows.js';

// Registration certificates per verifier (issue 25, item 2): checked before they are
// stored — a registrar anchor (the platform's REGISTRAR_TRUST_ANCHORS_FILE, or the
// organisation's trust anchors of purpose `registrar`), the signature, the form and
// version, validity, and the relying party equal to the access certificate's
// identifier — refused with the reason otherwise; read, replaced and removed.

interface Setting {
  /** The registrar the platform trusts (REGISTRAR_TRUST_ANCHORS_FILE). */
  platformRegistrar: TestRegistrar;
  /** A registrar no one trusts unless an organisation adds it. */
  otherRegistrar: TestRegistrar;
  ca: AccessCertificateCa;
}

// The registrars exist before the harness, which is given the platform one's root.
const registrars = Promise.all([createTestRegistrar('Platform Registrar'), createTestRegistrar('Other Registrar')]);

const test = harnessTest(async () => ({
  registrarAnchors: [(await registrars)[0].root.certificate.toString('pem')],
})).extend('setting', { scope: 'file' }, async ({ api, desk: _desk }): Promise<Setting> => {
  const [platformRegistrar, otherRegistrar] = await registrars;
  const ca = await createAccessCertificateCa();
  await importAccessCertificate(api, ORG, ca);
  return { platformRegistrar, otherRegistrar, ca };
});

const path = (verifierId = 'desk', org = ORG) =>
  `/v1/orgs/${org}/oid4vp/verifier/${verifierId}/registration-certificate`;
const put = (api: MemberCall, registrationCertificate: unknown, options: { org?: string; verifierId?: string } = {}) =>
  api(
    'PUT',
    path(options.verifierId, options.org),
    { registrationCertificate },
    {
      org: options.org ?? ORG,
      roles: ['owner'],
    },
  );

describe('storing a registration certificate', () => {
  test('a V1.2.1 certificate of a platform registrar is stored; GET answers what it registered; DELETE removes it', async ({
    harness: h,
    api,
    setting,
  }) => {
    const jwt = await signRegistrationCertificate({ registrar: setting.platformRegistrar, version: '1.2.1' });
    const stored = await put(api, jwt);
    expect(stored.status, stored.raw).toBe(200);
    const data = stored.body.data;
    expect(data).toEqual({
      verifierId: 'desk',
      form: 'ts119475-v1.2.1',
      registrar: {
        name: expect.stringContaining('Platform Registrar'),
        subject: setting.platformRegistrar.signer.certificate.subject,
        anchorSubject: setting.platformRegistrar.root.certificate.subject,
      },
      relyingParty: {
        identifier: RELYING_PARTY_ID,
        name: 'Example Shop',
        legalName: 'Example Shop GmbH',
        country: 'DE',
      },
      intendedUses: [
        {
          purpose: [
            { lang: 'en', value: 'To check your age before selling alcohol' },
            { lang: 'de', value: 'Um vor dem Verkauf von Alkohol Ihr Alter zu prüfen' },
          ],
          credentials: [
            { format: 'dc+sd-jwt', vct: 'urn:eudi:pid:1', claims: [['given_name'], ['family_name'], ['address']] },
            {
              format: 'mso_mdoc',
              doctype: 'eu.europa.ec.eudi.pid.1',
              claims: [['eu.europa.ec.eudi.pid.1', 'age_over_18']],
            },
          ],
        },
      ],
      notBefore: expect.any(String),
      notAfter: expect.any(String),
      status: 'valid',
      boundToAccessCertificate: true,
      registrationCertificate: jwt,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Any member reads it.
    const read = await api('GET', path(), undefined, { roles: ['verifier'] });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(data);

    const removed = await api('DELETE', path(), undefined, { roles: ['admin'] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.registrationCertificate).toBe(jwt);
    const gone = await api('GET', path());
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('REGISTRATION_CERTIFICATE_NOT_FOUND');
    expect((await api('DELETE', path(), undefined, { roles: ['owner'] })).body.code).toBe(
      'REGISTRATION_CERTIFICATE_NOT_FOUND',
    );
    expect(await storedRegistrationCertificates(h.testDb.database, ORG)).toEqual([]);
  });

  test('the V1.1.1 and rc-rp+jwt forms are read too, from a registrar the organisation trusts; a new upload replaces the old', async ({
    api,
    setting,
  }) => {
    const org = 'org-own-registrar';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'gate' }, { org });
    await importAccessCertificate(api, org, setting.ca);
    const jwt111 = await signRegistrationCertificate({ registrar: setting.otherRegistrar, version: '1.1.1' });
    // Not yet trusted by this organisation (nor the platform).
    const untrusted = await put(api, jwt111, { org, verifierId: 'gate' });
    expect(untrusted.body.details[0].message).toMatch(/^UNTRUSTED: /);

    const anchor = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/trust-anchors`,
      { certificatePem: setting.otherRegistrar.root.certificate.toString('pem'), purpose: 'registrar', label: 'Other' },
      { org },
    );
    expect(anchor.status, anchor.raw).toBe(201);
    expect(anchor.body.data).toMatchObject({ kind: 'certificate', purpose: 'registrar', label: 'Other' });
    const listed = await api('GET', `/v1/orgs/${org}/oid4vp/trust-anchors?purpose=registrar`, undefined, { org });
    expect(listed.body.data.data.map((entry: { id: string }) => entry.id)).toEqual([anchor.body.data.id]);
    expect(
      (await api('GET', `/v1/orgs/${org}/oid4vp/trust-anchors?purpose=issuer`, undefined, { org })).body.data
        .totalItems,
    ).toBe(0);

    const v111 = await put(api, jwt111, { org, verifierId: 'gate' });
    expect(v111.status, v111.raw).toBe(200);
    expect(v111.body.data).toMatchObject({
      form: 'ts119475-v1.1.1',
      relyingParty: { identifier: RELYING_PARTY_ID },
      registrar: { anchorSubject: setting.otherRegistrar.root.certificate.subject },
    });
    // V1.1.1 string claim paths: an mdoc element registered without its namespace.
    expect(v111.body.data.intendedUses[0].credentials[1].claims).toEqual([[null, 'age_over_18']]);

    const rcRp = await signRegistrationCertificate({ registrar: setting.otherRegistrar, version: 'rc-rp' });
    const replaced = await put(api, rcRp, { org, verifierId: 'gate' });
    expect(replaced.status, replaced.raw).toBe(200);
    expect(replaced.body.data).toMatchObject({ form: 'rc-rp', registrationCertificate: rcRp });
    expect((await api('GET', path('gate', org), undefined, { org })).body.data.form).toBe('rc-rp');
  });

  test('each refusal is 400 REGISTRATION_CERTIFICATE_INVALID with its reason first in details, and stores nothing', async ({
    harness: h,
    api,
    setting,
  }) => {
    const registrar = setting.platformRegistrar;
    const now = Math.floor(Date.now() / 1000);
    const valid = await signRegistrationCertificate({ registrar });
    const cases: Array<[string, string]> = [
      ['MALFORMED', 'not a jwt'],
      ['MALFORMED', 'e30.e30'],
      ['UNSUPPORTED_TYPE', await signRegistrationCertificate({ registrar, header: { typ: 'JWT' } })],
      ['INVALID_HEADER', await signRegistrationCertificate({ registrar, header: { x5c: undefined } })],
      ['UNTRUSTED', await signRegistrationCertificate({ registrar: setting.otherRegistrar })],
      ['SIGNATURE_INVALID', tamperedPayload(valid, (payload) => (payload.name = 'Someone Else'))],
      [
        'INVALID_PAYLOAD',
        await signRegistrationCertificate({
          registrar,
          payload: { ...registrationCertificatePayload('1.2.1'), credentials: 'everything' },
        }),
      ],
      [
        'NOT_YET_VALID',
        await signRegistrationCertificate({
          registrar,
          payload: registrationCertificatePayload('1.2.1', { iat: now + DAY_SECONDS }),
        }),
      ],
      [
        'EXPIRED',
        await signRegistrationCertificate({
          registrar,
          payload: registrationCertificatePayload('1.2.1', { iat: now - 100 * DAY_SECONDS, exp: now - DAY_SECONDS }),
        }),
      ],
      [
        'RELYING_PARTY_MISMATCH',
        await signRegistrationCertificate({
          registrar,
          payload: registrationCertificatePayload('1.2.1', { relyingPartyIdentifier: 'VATDE-999999999' }),
        }),
      ],
    ];
    for (const [reason, jwt] of cases) {
      const response = await put(api, jwt);
      expect(response.status, `${reason}: ${response.raw}`).toBe(400);
      expect(response.body.code).toBe('REGISTRATION_CERTIFICATE_INVALID');
      expect(response.body.details[0]).toEqual({
        path: '/registrationCertificate',
        message: expect.stringMatching(new RegExp(`^${reason}: `)),
      });
      for (const detail of response.body.details) expect(detail.path).toMatch(/^\/registrationCertificate/);
    }
    expect(await storedRegistrationCertificates(h.testDb.database, ORG)).toEqual([]);
  });

  test('binds to the P-256 access certificate in force: a platform leaf carries no identifier; a new access certificate unbinds it', async ({
    api,
    setting,
  }) => {
    const org = 'org-platform-leaf';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    const jwt = await signRegistrationCertificate({ registrar: setting.platformRegistrar });
    const refused = await put(api, jwt, { org });
    expect(refused.body.details[0].message).toMatch(/^RELYING_PARTY_MISMATCH: .*carries no organizationIdentifier/);

    await importAccessCertificate(api, org, setting.ca);
    expect((await put(api, jwt, { org })).body.data.boundToAccessCertificate).toBe(true);
    // Another identifier in force: the stored certificate stays, reported as no longer bound.
    await importAccessCertificate(api, org, setting.ca, 'VATDE-000000001');
    const read = await api('GET', path('desk', org), undefined, { org });
    expect(read.body.data).toMatchObject({
      boundToAccessCertificate: false,
      relyingParty: { identifier: RELYING_PARTY_ID },
    });
  });

  test('an issuer anchor of the registrar does not trust its registration certificates', async ({ api, setting }) => {
    const org = 'org-issuer-purpose';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    await importAccessCertificate(api, org, setting.ca);
    const rootPem = setting.otherRegistrar.root.certificate.toString('pem');
    expect(
      (await api('POST', `/v1/orgs/${org}/oid4vp/trust-anchors`, { certificatePem: rootPem }, { org })).status,
    ).toBe(201);
    const jwt = await signRegistrationCertificate({ registrar: setting.otherRegistrar });
    expect((await put(api, jwt, { org })).body.details[0].message).toMatch(/^UNTRUSTED: /);
    // One purpose per certificate in an organisation.
    const twice = await api(
      'POST',
      `/v1/orgs/${org}/oid4vp/trust-anchors`,
      { certificatePem: rootPem, purpose: 'registrar' },
      { org },
    );
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      code: 'TRUST_ANCHOR_EXISTS',
      message: expect.stringMatching(/as an issuer anchor/),
    });
    // A registrar anchor takes neither credential types nor a DID.
    for (const body of [
      { certificatePem: rootPem, purpose: 'registrar', credentialTypes: ['urn:eudi:pid:1'] },
      { did: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', purpose: 'registrar' },
      { certificatePem: rootPem, purpose: 'auditor' },
    ]) {
      const response = await api('POST', `/v1/orgs/${org}/oid4vp/trust-anchors`, body, { org });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  test('reports expiry ahead, and an expired certificate as expired', async ({ harness: h, api, setting }) => {
    const org = 'org-expiring';
    await api('POST', `/v1/orgs/${org}/oid4vp/verifier`, { verifierId: 'desk' }, { org });
    await importAccessCertificate(api, org, setting.ca);
    const now = Math.floor(Date.now() / 1000);
    const jwt = await signRegistrationCertificate({
      registrar: setting.platformRegistrar,
      payload: registrationCertificatePayload('1.2.1', { iat: now - DAY_SECONDS, exp: now + 3 * DAY_SECONDS }),
    });
    expect((await put(api, jwt, { org })).body.data.status).toBe('valid');
    try {
      h.clock.offsetMs = (2 * DAY_SECONDS + 3600) * 1000;
      expect((await api('GET', path('desk', org), undefined, { org })).body.data.status).toBe('expiring');
      h.clock.offsetMs = (3 * DAY_SECONDS + 3600) * 1000;
      expect((await api('GET', path('desk', org), undefined, { org })).body.data).toMatchObject({
        status: 'expired',
        notAfter: new Date((now + 3 * DAY_SECONDS) * 1000).toISOString(),
      });
    } finally {
      h.clock.offsetMs = 0;
    }
  });
});

describe('who may manage registration certificates', () => {
  test('PUT and DELETE are for owners and admins; GET for every member; others get 401, 403 or 404', async ({
    harness: h,
    api,
    setting,
  }) => {
    const jwt = await signRegistrationCertificate({ registrar: setting.platformRegistrar });
    for (const role of ['verifier', 'member']) {
      expect((await api('PUT', path(), { registrationCertificate: jwt }, { roles: [role] })).status, role).toBe(403);
      expect((await api('DELETE', path(), undefined, { roles: [role] })).status, role).toBe(403);
    }
    expect((await api('PUT', path(), { registrationCertificate: jwt }, { roles: ['admin'] })).status).toBe(200);
    expect((await api('GET', path(), undefined, { roles: ['verifier'] })).status).toBe(200);
    // Another organisation's member, in this organisation's path: 403; in its own path, this verifier does not exist.
    expect((await api('GET', path(), undefined, { org: OTHER_ORG, roles: ['owner'] })).status).toBe(403);
    const elsewhere = await put(api, jwt, { org: OTHER_ORG });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('VERIFIER_NOT_FOUND');
    expect((await api('GET', path('desk', OTHER_ORG), undefined, { org: OTHER_ORG })).body.code).toBe(
      'VERIFIER_NOT_FOUND',
    );
    expect((await put(api, jwt, { verifierId: 'no-such-desk' })).body.code).toBe('VERIFIER_NOT_FOUND');
    expect((await h.call('GET', path())).status).toBe(401);
    expect((await h.call('PUT', path(), { body: { registrationCertificate: jwt } })).status).toBe(401);
  });

  test('malformed bodies are 400 VALIDATION_FAILED and change nothing', async ({ api, setting }) => {
    const jwt = await signRegistrationCertificate({ registrar: setting.platformRegistrar });
    await put(api, jwt);
    const before = (await api('GET', path())).body.data;
    for (const body of [
      undefined,
      {},
      { registrationCertificate: '' },
      { registrationCertificate: { jwt } },
      { registrationCertificate: jwt, extra: true },
      { registrationCertificate: 'x'.repeat(65537) },
    ]) {
      const response = await api('PUT', path(), body, { roles: ['owner'] });
      expect(response.status, JSON.stringify(body)?.slice(0, 80)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('GET', path())).body.data).toEqual(before);
  });
});
