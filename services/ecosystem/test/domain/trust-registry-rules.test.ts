import { describe, expect, it } from 'vitest';
import { AppError } from '@tessera/service-kit';
import { normaliseEntityName } from '../../src/domain/entity-name.js';
import { readCertificate, type ReadCertificate } from '../../src/domain/read-certificate.js';
import { checkAllowedCredentialTypes, planStatusChange } from '../../src/domain/trusted-entity-rules.js';
import { vetCertificates } from '../../src/domain/vet-certificates.js';
import { GARBAGE_PEM, makeCa, makeCaWithoutSki, makeExpiredCa, makeLeaf } from '../support/certificates.js';

const NOW = new Date('2030-01-01T00:00:00Z');
const certificate = (overrides: Partial<ReadCertificate>): ReadCertificate => ({
  pem: 'pem',
  fingerprint: 'a'.repeat(64),
  subject: 'CN=x',
  ski: '01',
  aki: null,
  notBefore: new Date('2029-01-01T00:00:00Z'),
  notAfter: new Date('2031-01-01T00:00:00Z'),
  kind: 'ca',
  ...overrides,
});

describe('readCertificate', () => {
  it('reads fingerprint, subject, SKI, AKI, validity and kind as the test PKI made them', async () => {
    const ca = await makeCa('Read CA');
    const leaf = await makeLeaf(ca, 'Read leaf');
    const readCa = readCertificate(ca.pem);
    const readLeaf = readCertificate(leaf.pem);
    expect(readCa).toMatchObject({
      ok: true,
      certificate: {
        fingerprint: ca.fingerprint,
        ski: ca.ski,
        aki: null,
        kind: 'ca',
        subject: 'CN=Read CA, O=Tessera Tests',
      },
    });
    expect(readLeaf).toMatchObject({
      ok: true,
      certificate: {
        fingerprint: leaf.fingerprint,
        ski: leaf.ski,
        aki: ca.ski,
        kind: 'leaf',
        notAfter: leaf.certificate.notAfter,
      },
    });
    expect(readCa.ok && readCa.certificate.ski).toMatch(/^[0-9a-f]+$/);
  });

  it('names what is wrong with text that is not one certificate', async () => {
    const ca = await makeCa();
    expect(readCertificate(GARBAGE_PEM)).toEqual({ ok: false, problem: 'is not a parseable X.509 certificate' });
    expect(readCertificate('')).toEqual({ ok: false, problem: 'must hold exactly one PEM block, found 0' });
    expect(readCertificate(ca.pem + ca.pem)).toEqual({
      ok: false,
      problem: 'must hold exactly one PEM block, found 2',
    });
    expect(readCertificate(ca.pem.replaceAll('CERTIFICATE', 'PUBLIC KEY'))).toEqual({
      ok: false,
      problem: 'must be a CERTIFICATE, not a PUBLIC KEY',
    });
  });
});

describe('vetCertificates', () => {
  const vet = (read: Parameters<typeof vetCertificates>[0]['read'], holders = new Map()) =>
    vetCertificates({ read, now: NOW, holders, path: '/certificates' });

  it('accepts valid and not-yet-valid certificates, a leaf without SKI', () => {
    const future = certificate({ fingerprint: 'b'.repeat(64), notBefore: new Date('2030-06-01T00:00:00Z') });
    const leaf = certificate({ fingerprint: 'c'.repeat(64), kind: 'leaf', ski: null });
    expect(
      vet([
        { ok: true, certificate: certificate({}) },
        { ok: true, certificate: future },
        { ok: true, certificate: leaf },
      ]),
    ).toMatchObject({ ok: true, certificates: [{}, future, leaf] });
  });

  it('refuses expired, CA without SKI, repeated, held and unreadable ones, each at its index', () => {
    const result = vet(
      [
        { ok: true, certificate: certificate({ notAfter: new Date('2029-12-31T23:59:59Z') }) },
        { ok: true, certificate: certificate({ fingerprint: 'b'.repeat(64), ski: null }) },
        { ok: true, certificate: certificate({ fingerprint: 'c'.repeat(64) }) },
        { ok: true, certificate: certificate({ fingerprint: 'c'.repeat(64) }) },
        { ok: true, certificate: certificate({ fingerprint: 'd'.repeat(64) }) },
        { ok: false, problem: 'is not a parseable X.509 certificate' },
      ],
      new Map([['d'.repeat(64), { entityId: 'e-1', entityName: 'Holder' }]]),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: '/certificates/0/pem', message: 'certificate 0 expired on 2029-12-31T23:59:59.000Z' },
        { path: '/certificates/1/pem', message: 'certificate 1 is a CA certificate without a subject key identifier' },
        { path: '/certificates/3/pem', message: 'certificate 3 is the same certificate as certificate 2' },
        {
          path: '/certificates/4/pem',
          message: 'certificate 4 is already a current certificate of trusted entity "Holder" (e-1)',
        },
        { path: '/certificates/5/pem', message: 'certificate 5 is not a parseable X.509 certificate' },
      ],
    });
  });

  it("refuses the test PKI's expired CA and CA without SKI as read from PEM", async () => {
    const read = [readCertificate((await makeExpiredCa()).pem), readCertificate((await makeCaWithoutSki()).pem)];
    const result = vetCertificates({ read, now: new Date(), holders: new Map(), path: '/certificates' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toEqual(['/certificates/0/pem', '/certificates/1/pem']);
  });
});

describe('trusted entity rules', () => {
  it('allowed credential types: required for issuers, none for verifiers, no duplicates', () => {
    const pid = { format: 'dc+sd-jwt' as const, vct: 'urn:pid' };
    const mdl = { format: 'mso_mdoc' as const, doctype: 'org.iso.18013.5.1.mDL' };
    expect(checkAllowedCredentialTypes('issuer', [pid, mdl])).toEqual([]);
    expect(checkAllowedCredentialTypes('issuer', [])).toEqual([
      { path: '/allowedCredentialTypes', message: 'an issuer needs at least one allowed credential type' },
    ]);
    expect(checkAllowedCredentialTypes('verifier', [])).toEqual([]);
    expect(checkAllowedCredentialTypes('verifier', [pid])[0]!.path).toBe('/allowedCredentialTypes');
    expect(checkAllowedCredentialTypes('issuer', [pid, mdl, { ...pid }])).toEqual([
      { path: '/allowedCredentialTypes/2', message: 'vct "urn:pid" is listed twice' },
    ]);
    // A vct equal to a doctype is a different type.
    expect(
      checkAllowedCredentialTypes('issuer', [
        { format: 'dc+sd-jwt', vct: 'x' },
        { format: 'mso_mdoc', doctype: 'x' },
      ]),
    ).toEqual([]);
  });

  it('status changes: active ⇄ suspended, either → withdrawn, withdrawn final, same status unchanged', () => {
    expect(planStatusChange('active', 'suspended')).toBe('change');
    expect(planStatusChange('suspended', 'active')).toBe('change');
    expect(planStatusChange('active', 'withdrawn')).toBe('change');
    expect(planStatusChange('suspended', 'withdrawn')).toBe('change');
    expect(planStatusChange('active', 'active')).toBe('unchanged');
    expect(planStatusChange('suspended', 'suspended')).toBe('unchanged');
    for (const next of ['active', 'suspended', 'withdrawn'] as const) {
      expect(() => planStatusChange('withdrawn', next)).toThrow(AppError);
      try {
        planStatusChange('withdrawn', next);
      } catch (error) {
        expect(error).toMatchObject({ statusCode: 409, code: 'ENTITY_WITHDRAWN' });
      }
    }
  });

  it('entity names are trimmed, inner spaces collapsed, 1–200 characters', () => {
    expect(normaliseEntityName('  PID   Provider ')).toEqual({ name: 'PID Provider', problems: [] });
    expect(normaliseEntityName('   ').problems).toHaveLength(1);
    expect(normaliseEntityName(`${'x'.repeat(200)}  `).problems).toEqual([]);
    expect(normaliseEntityName('x'.repeat(201)).problems[0]!.path).toBe('/name');
  });
});
