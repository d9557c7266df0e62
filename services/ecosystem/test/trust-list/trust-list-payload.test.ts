import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { buildTrustListPayload, etsiDateTime } from '../../src/domain/trust-list-payload.js';
import type { TrustListContent, TrustListContentCertificate } from '../../src/domain/trust-list-content.js';
import { etsiSchemaErrors } from '../support/signed-trust-list.js';

// The payload as a pure function of the registry's content: ETSI field by field, and
// valid against the ETSI schema whatever the registry holds (no entity, a verifier, an
// entity without certificates, a leaf without SKI).

x509.cryptoProvider.set(webcrypto as never);
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function certificate(name: string, options: { ca: boolean; ski: boolean }): Promise<TrustListContentCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name}, O=Tessera Tests`,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2036-01-01T00:00:00Z'),
    signingAlgorithm: EC,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca, undefined, true),
      ...(options.ski ? [await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)] : []),
    ],
  });
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId.toLowerCase() ?? null;
  return {
    id: `cert-${name}`,
    fingerprint: createHash('sha256').update(Buffer.from(cert.rawData)).digest('hex'),
    kind: options.ca ? 'ca' : 'leaf',
    ski,
    aki: null,
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    pem: cert.toString('pem'),
    subject: cert.subject,
  };
}

const ISSUED_AT = new Date('2026-03-01T10:00:00.123Z');
const POINT = 'https://ecosystem.example/v1/ecosystem/5b1c4c8e-6a3e-4f43-9d6f-0d1f5d4b7a10/trust-list';

async function content(): Promise<TrustListContent> {
  const ca = await certificate('PID Issuer CA', { ca: true, ski: true });
  const leaf = await certificate('Exact Signer', { ca: false, ski: false });
  return {
    ecosystem: { id: '5b1c4c8e-6a3e-4f43-9d6f-0d1f5d4b7a10', name: 'Health Data Space' },
    lead: { orgId: 'org-lead', name: 'Lead Org' },
    sequence: 7,
    sequenceChangedAt: new Date('2026-02-28T09:00:00Z'),
    public: true,
    policy: 'ecosystem',
    entities: [
      {
        id: 'e1',
        name: 'PID Issuer',
        role: 'issuer',
        orgId: null,
        status: 'suspended',
        allowedCredentialTypes: [
          { format: 'dc+sd-jwt', vct: 'urn:eudi:pid:1' },
          { format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' },
        ],
        certificates: [ca, leaf],
        informationUri: 'https://issuer.example/about',
        statusStartingTime: new Date('2026-02-28T09:00:00Z'),
        statusHistory: [{ status: 'active', startingTime: new Date('2026-02-01T08:00:00Z') }],
      },
      {
        id: 'e2',
        name: 'Pharmacy Verifier',
        role: 'verifier',
        orgId: 'org-member',
        status: 'active',
        allowedCredentialTypes: [],
        certificates: [],
        informationUri: null,
        statusStartingTime: new Date('2026-02-02T08:00:00Z'),
        statusHistory: [],
      },
    ],
  };
}

describe('the trust list payload (ETSI TS 119 602 JSON binding)', () => {
  it('is valid against the ETSI schema, and states the list, its operator and its dates', async () => {
    const document = buildTrustListPayload({
      content: await content(),
      issuedAt: ISSUED_AT,
      validitySeconds: 86400,
      distributionPoint: POINT,
    });
    expect(etsiSchemaErrors(document)).toEqual([]);
    expect(document.LoTE.ListAndSchemeInformation).toEqual({
      LoTEVersionIdentifier: 1,
      LoTESequenceNumber: 7,
      LoTEType: 'https://tessera.dev/ns/trust-list/LoTEType/EcosystemTrustList',
      SchemeOperatorName: [{ lang: 'en', value: 'Lead Org' }],
      SchemeName: [{ lang: 'en', value: 'Health Data Space' }],
      ListIssueDateTime: '2026-03-01T10:00:00Z',
      NextUpdate: '2026-03-02T10:00:00Z',
      DistributionPoints: [POINT],
    });
  });

  it('gives an issuer its service: Tessera issuance type, status with its start, certificates, SKIs, allowed types and history', async () => {
    const input = await content();
    const [issuer] = buildTrustListPayload({
      content: input,
      issuedAt: ISSUED_AT,
      validitySeconds: 3600,
      distributionPoint: POINT,
    }).LoTE.TrustedEntitiesList!;
    const [ca, leaf] = input.entities[0]!.certificates;
    expect(issuer!.TrustedEntityInformation).toEqual({
      TEName: [{ lang: 'en', value: 'PID Issuer' }],
      TEAddress: {
        TEPostalAddress: [{ lang: 'en', StreetAddress: 'Not recorded in the Tessera trust registry', Country: 'ZZ' }],
        TEElectronicAddress: [
          {
            lang: 'en',
            uriValue: 'https://ecosystem.example/v1/ecosystem/5b1c4c8e-6a3e-4f43-9d6f-0d1f5d4b7a10/trusted-entities/e1',
          },
        ],
      },
      TEInformationURI: [
        { lang: 'en', uriValue: 'https://issuer.example/about' },
        {
          lang: 'en',
          uriValue: 'https://ecosystem.example/v1/ecosystem/5b1c4c8e-6a3e-4f43-9d6f-0d1f5d4b7a10/trusted-entities/e1',
        },
      ],
    });
    const [service] = issuer!.TrustedEntityServices;
    const der = (pem: string) => new x509.X509Certificate(pem).rawData;
    expect(service!.ServiceInformation).toEqual({
      ServiceName: [{ lang: 'en', value: 'PID Issuer (issuance)' }],
      ServiceTypeIdentifier: 'https://tessera.dev/ns/trust-list/SvcType/Issuance',
      ServiceStatus: 'https://tessera.dev/ns/trust-list/SvcStatus/suspended',
      StatusStartingTime: '2026-02-28T09:00:00Z',
      ServiceDigitalIdentity: {
        X509Certificates: [
          { val: Buffer.from(der(ca!.pem)).toString('base64') },
          { val: Buffer.from(der(leaf!.pem)).toString('base64') },
        ],
        X509SubjectNames: [ca!.subject, leaf!.subject],
        // Only the CA has one; the key identifier's bytes, base64.
        X509SKIs: [Buffer.from(ca!.ski!, 'hex').toString('base64')],
      },
      ServiceInformationExtensions: [
        {
          Critical: true,
          TesseraAllowedCredentialTypes: [
            { format: 'dc+sd-jwt', vct: 'urn:eudi:pid:1' },
            { format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' },
          ],
        },
      ],
    });
    expect(service!.ServiceHistory).toEqual([
      {
        ServiceName: [{ lang: 'en', value: 'PID Issuer (issuance)' }],
        ServiceTypeIdentifier: 'https://tessera.dev/ns/trust-list/SvcType/Issuance',
        ServiceStatus: 'https://tessera.dev/ns/trust-list/SvcStatus/granted',
        StatusStartingTime: '2026-02-01T08:00:00Z',
        ServiceDigitalIdentity: service!.ServiceInformation.ServiceDigitalIdentity,
      },
    ]);
  });

  it('gives a verifier the verification type, no extension, and no history or identity lists it has not got', async () => {
    const [, verifier] = buildTrustListPayload({
      content: await content(),
      issuedAt: ISSUED_AT,
      validitySeconds: 3600,
      distributionPoint: POINT,
    }).LoTE.TrustedEntitiesList!;
    const [service] = verifier!.TrustedEntityServices;
    expect(service).toEqual({
      ServiceInformation: {
        ServiceName: [{ lang: 'en', value: 'Pharmacy Verifier (verification)' }],
        ServiceTypeIdentifier: 'https://tessera.dev/ns/trust-list/SvcType/Verification',
        ServiceStatus: 'https://tessera.dev/ns/trust-list/SvcStatus/granted',
        StatusStartingTime: '2026-02-02T08:00:00Z',
        ServiceDigitalIdentity: {},
      },
    });
    expect(verifier!.TrustedEntityInformation.TEInformationURI).toHaveLength(1);
  });

  it('leaves TrustedEntitiesList out of an empty registry (ETSI wants at least one entity when present) and names withdrawn entities so', async () => {
    const empty = { ...(await content()), entities: [] };
    const document = buildTrustListPayload({
      content: empty,
      issuedAt: ISSUED_AT,
      validitySeconds: 60,
      distributionPoint: POINT,
    });
    expect(etsiSchemaErrors(document)).toEqual([]);
    expect(document.LoTE).not.toHaveProperty('TrustedEntitiesList');
    expect(document.LoTE.ListAndSchemeInformation.NextUpdate).toBe('2026-03-01T10:01:00Z');

    const withdrawn = await content();
    withdrawn.entities[0]!.status = 'withdrawn';
    const [entity] = buildTrustListPayload({
      content: withdrawn,
      issuedAt: ISSUED_AT,
      validitySeconds: 60,
      distributionPoint: POINT,
    }).LoTE.TrustedEntitiesList!;
    expect(entity!.TrustedEntityServices[0]!.ServiceInformation.ServiceStatus).toBe(
      'https://tessera.dev/ns/trust-list/SvcStatus/withdrawn',
    );
  });

  it('writes ETSI date-times: UTC, whole seconds, Z', () => {
    expect(etsiDateTime(new Date('2026-03-01T10:00:00.999Z'))).toBe('2026-03-01T10:00:00Z');
  });

  it('the schema check can fail: a document without a required ETSI field is refused', async () => {
    const document = buildTrustListPayload({
      content: await content(),
      issuedAt: ISSUED_AT,
      validitySeconds: 60,
      distributionPoint: POINT,
    }) as unknown as {
      LoTE: {
        TrustedEntitiesList: Array<{ TrustedEntityInformation: Record<string, unknown> }>;
        ListAndSchemeInformation: Record<string, unknown>;
      };
    };
    delete document.LoTE.TrustedEntitiesList[0]!.TrustedEntityInformation.TEAddress;
    document.LoTE.ListAndSchemeInformation.Extra = true;
    const errors = etsiSchemaErrors(document).map((error) => `${error.instancePath} ${error.message}`);
    expect(errors).toContain(
      "/LoTE/TrustedEntitiesList/0/TrustedEntityInformation must have required property 'TEAddress'",
    );
    expect(errors).toContain('/LoTE/ListAndSchemeInformation must NOT have additional properties');
  });
});
