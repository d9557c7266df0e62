import { describe, expect } from 'vitest';
import type { TrustedEntity } from '@tessera/contracts';
import { makeCa, makeLeaf } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';
import { verifyTrustList, type VerifiedTrustList } from '../support/signed-trust-list.js';
import { entitiesPath, issuerBody, MDL_DOCTYPE, PID_VCT, registerEntity } from '../support/trust-registry.js';
import { ORG, type World } from '../support/world.js';

// The signed list as an outside verifier reads it, after real registry changes through
// the API: verified with jsrsasign and @peculiar/x509 against /v1/trust-list-ca.pem,
// valid against the ETSI schema, and saying what the registry holds.

const SVC = 'https://tessera.dev/ns/trust-list/SvcType/';
const STATUS = 'https://tessera.dev/ns/trust-list/SvcStatus/';

async function readList(h: Harness, world: World): Promise<VerifiedTrustList> {
  const response = await h.call('GET', `/v1/ecosystem/${world.ecosystemId}/trust-list`, { token: world.tokens.lead });
  expect(response.status).toBe(200);
  return verifyTrustList(response.raw, (await h.call('GET', '/v1/trust-list-ca.pem')).raw);
}

const services = (list: VerifiedTrustList) =>
  (list.payload.LoTE.TrustedEntitiesList ?? []).map((entity) => ({
    entity,
    service: entity.TrustedEntityServices[0]!.ServiceInformation,
    history: entity.TrustedEntityServices[0]!.ServiceHistory,
  }));
const base64Der = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

describe('the signed trust list follows the registry', () => {
  test('entities, certificates, SKIs, statuses, history and the sequence, change by change', async ({
    harness: h,
    world,
  }) => {
    const empty = await readList(h, world);
    expect(empty.payload.LoTE.ListAndSchemeInformation).toMatchObject({
      LoTESequenceNumber: 0,
      SchemeOperatorName: [{ lang: 'en', value: 'lead organisation' }],
      SchemeName: [{ lang: 'en', value: 'Health Data Space' }],
      DistributionPoints: [`http://localhost:3002/v1/ecosystem/${world.ecosystemId}/trust-list`],
    });
    expect(empty.payload.LoTE).not.toHaveProperty('TrustedEntitiesList');

    // An issuer with a CA and an exact leaf, allowed the PID and the mDL.
    const ca = await makeCa('PID Issuer CA');
    const leaf = await makeLeaf(ca, 'PID Signer');
    const issuer = await registerEntity(
      h,
      world,
      issuerBody([ca.pem, leaf.pem], {
        allowedCredentialTypes: [
          { format: 'dc+sd-jwt', vct: PID_VCT },
          { format: 'mso_mdoc', doctype: MDL_DOCTYPE },
        ],
        informationUri: 'https://issuer.example/about',
      }),
    );
    // A verifier of a member organisation.
    const verifierCa = await makeCa('Pharmacy Verifier CA');
    const verifier = await registerEntity(h, world, {
      name: 'Pharmacy',
      role: 'verifier',
      orgId: ORG.member,
      allowedCredentialTypes: [],
      certificates: [{ pem: verifierCa.pem }],
    });

    const two = await readList(h, world);
    expect(two.payload.LoTE.ListAndSchemeInformation.LoTESequenceNumber).toBe(2);
    const [issuerEntry, verifierEntry] = services(two);
    expect(issuerEntry!.entity.TrustedEntityInformation.TEName).toEqual([{ lang: 'en', value: 'PID Issuer' }]);
    expect(issuerEntry!.entity.TrustedEntityInformation.TEInformationURI[0]).toEqual({
      lang: 'en',
      uriValue: 'https://issuer.example/about',
    });
    expect(issuerEntry!.service).toMatchObject({
      ServiceTypeIdentifier: `${SVC}Issuance`,
      ServiceStatus: `${STATUS}granted`,
      StatusStartingTime: issuer.statusChangedAt.replace(/\.\d{3}Z$/, 'Z'),
      ServiceInformationExtensions: [
        {
          Critical: true,
          TesseraAllowedCredentialTypes: [
            { format: 'dc+sd-jwt', vct: PID_VCT },
            { format: 'mso_mdoc', doctype: MDL_DOCTYPE },
          ],
        },
      ],
    });
    // Certificates added together are listed in fingerprint order; SKIs follow them (the test helper gives the leaf one too).
    const byFingerprint = [ca, leaf].sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
    expect(issuerEntry!.service.ServiceDigitalIdentity).toEqual({
      X509Certificates: byFingerprint.map((c) => ({ val: base64Der(c.pem) })),
      X509SubjectNames: byFingerprint.map((c) => c.certificate.subject),
      X509SKIs: byFingerprint.map((c) => Buffer.from(c.ski!, 'hex').toString('base64')),
    });
    expect(issuerEntry!.history).toBeUndefined();
    expect(verifierEntry!.service).toMatchObject({
      ServiceTypeIdentifier: `${SVC}Verification`,
      ServiceStatus: `${STATUS}granted`,
      ServiceDigitalIdentity: { X509Certificates: [{ val: base64Der(verifierCa.pem) }] },
    });
    expect(verifierEntry!.service).not.toHaveProperty('ServiceInformationExtensions');

    // Suspended: the status and its start change, the granted period goes to the history.
    const suspended = await changeStatus(h, world, issuer, 'suspended');
    const three = await readList(h, world);
    expect(three.payload.LoTE.ListAndSchemeInformation.LoTESequenceNumber).toBe(3);
    const [suspendedEntry] = services(three);
    expect(suspendedEntry!.service).toMatchObject({
      ServiceStatus: `${STATUS}suspended`,
      StatusStartingTime: suspended.statusChangedAt.replace(/\.\d{3}Z$/, 'Z'),
    });
    expect(suspendedEntry!.history).toEqual([
      expect.objectContaining({
        ServiceStatus: `${STATUS}granted`,
        StatusStartingTime: issuer.statusChangedAt.replace(/\.\d{3}Z$/, 'Z'),
        ServiceTypeIdentifier: `${SVC}Issuance`,
      }),
    ]);

    // A certificate retired: gone from the identity; the sequence moves.
    const retired = await h.call(
      'DELETE',
      entitiesPath(
        world,
        `/${issuer.id}/certificates/${issuer.certificates.find((c) => c.fingerprint === leaf.fingerprint)!.id}`,
      ),
      { token: world.tokens.lead },
    );
    expect(retired.status).toBeLessThan(300);
    const four = await readList(h, world);
    expect(four.payload.LoTE.ListAndSchemeInformation.LoTESequenceNumber).toBe(4);
    expect(services(four)[0]!.service.ServiceDigitalIdentity.X509Certificates).toEqual([{ val: base64Der(ca.pem) }]);

    // Reactivated, then withdrawn: newest status first in the history.
    await changeStatus(h, world, issuer, 'active');
    await changeStatus(h, world, issuer, 'withdrawn');
    const six = await readList(h, world);
    expect(six.payload.LoTE.ListAndSchemeInformation.LoTESequenceNumber).toBe(6);
    const [withdrawnEntry, stillVerifier] = services(six);
    expect(withdrawnEntry!.service.ServiceStatus).toBe(`${STATUS}withdrawn`);
    expect(withdrawnEntry!.history!.map((instance) => instance.ServiceStatus)).toEqual([
      `${STATUS}granted`,
      `${STATUS}suspended`,
      `${STATUS}granted`,
    ]);
    expect(stillVerifier!.entity.TrustedEntityInformation.TEName).toEqual([{ lang: 'en', value: 'Pharmacy' }]);
    expect(verifier.id).toBeTruthy();
  });
});

async function changeStatus(
  h: Harness,
  world: World,
  entity: TrustedEntity,
  status: 'active' | 'suspended' | 'withdrawn',
): Promise<TrustedEntity> {
  const response = await h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
    token: world.tokens.lead,
    body: { status, reason: `set ${status} in a test` },
  });
  expectStatus(response, 200);
  return response.body.data as TrustedEntity;
}
