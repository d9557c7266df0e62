import { DC_API_PROTOCOLS, type IntentNotice } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { certificateRequestBodyOf } from '../../src/domain/certificate-request-form.js';
import { credentialTypeLines, parseCredentialTypeLines } from '../../src/domain/credential-type-lines.js';
import { DC_API_PROTOCOL_CHOICES, orderedDcApiProtocols } from '../../src/domain/dc-api-protocol-choices.js';
import { parseDevelopmentClaims } from '../../src/domain/development-claims.js';
import { unixSecondsOfUtcField, utcFieldOfUnixSeconds } from '../../src/domain/format.js';
import { formOfNotice, noticeBodyOfForm, readableDuration, readableTerm } from '../../src/domain/notice-form.js';

describe('the development sign-in form', () => {
  it('reads one organisation per line with its roles, as npm run token takes them', () => {
    expect(
      parseDevelopmentClaims({
        sub: ' alice ',
        email: 'alice@example.com',
        organisations: 'org-1: owner, admin\norg-2:verifier\n\norg-1: member',
        platformAdmin: 'on',
      }),
    ).toEqual({
      ok: true,
      claims: {
        sub: 'alice',
        email: 'alice@example.com',
        platformAdmin: true,
        orgRoles: { 'org-1': ['owner', 'admin', 'member'], 'org-2': ['verifier'] },
      },
    });
  });

  it('names each bad line and field', () => {
    const parsed = parseDevelopmentClaims({ sub: '', email: 'nope', organisations: 'org-1: boss\nno roles' });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.details.map((detail) => detail.path)).toEqual([
      '/sub',
      '/email',
      '/organisations/0',
      '/organisations/1',
    ]);
  });
});

describe('allowed credential types, one per line', () => {
  it('tells vct URLs from doctypes, or takes the format named', () => {
    const parsed = parseCredentialTypeLines('https://example.eu/pid\norg.iso.18013.5.1.mDL\ndc+sd-jwt urn:eu:pid\n');
    expect(parsed).toEqual({
      ok: true,
      types: [
        { format: 'dc+sd-jwt', vct: 'https://example.eu/pid' },
        { format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' },
        { format: 'dc+sd-jwt', vct: 'urn:eu:pid' },
      ],
    });
    expect(parsed.ok && credentialTypeLines(parsed.types)).toBe(
      'https://example.eu/pid\norg.iso.18013.5.1.mDL\nurn:eu:pid',
    );
    expect(parseCredentialTypeLines('what is this')).toMatchObject({
      ok: false,
      details: [{ path: '/allowedCredentialTypes/0' }],
    });
  });
});

describe('the consent notice form', () => {
  const notice: IntentNotice = {
    id: 'n',
    intentId: 'i',
    version: 2,
    createdBy: 'lead',
    createDateTime: '2026-01-01T00:00:00.000Z',
    title: 'Age check',
    language: 'en',
    controller: { name: 'Shop Ltd', contact: 'privacy@shop.example', url: 'https://shop.example' },
    purposes: [{ id: 'dpv:ServiceProvision', description: 'To sell you age-restricted goods: nothing else.' }],
    personalDataCategories: ['pd:Age'],
    processingOperations: ['dpv:Collect', 'dpv:Use'],
    legalBasis: 'dpv:Consent',
    retention: { duration: 'P30D' },
    recipients: [{ name: 'Auditor: Ltd', role: 'processor' }],
    storageLocations: ['DE'],
  };

  it('fills from a version and reads back into the same notice body', () => {
    const { id: _id, intentId: _intent, version: _version, createdBy: _by, createDateTime: _at, ...body } = notice;
    expect(noticeBodyOfForm(formOfNotice(notice))).toEqual(body);
  });

  it('reads DPV terms and ISO 8601 durations as a person does', () => {
    expect(readableTerm('dpv:ServiceProvision')).toBe('Service provision');
    expect(readableTerm('pd:Age')).toBe('Age');
    expect(readableDuration('P1Y6M')).toBe('1 year 6 months');
    expect(readableDuration('PT1H')).toBe('1 hour');
    expect(readableDuration('nonsense')).toBe('nonsense');
  });
});

describe('a date and time field read as UTC', () => {
  it('reads minutes or seconds, refuses times that do not exist, and writes back what it reads', () => {
    expect(unixSecondsOfUtcField('2026-11-24T10:00')).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
    expect(unixSecondsOfUtcField('2026-11-24T10:00:05')).toBe(Date.UTC(2026, 10, 24, 10, 0, 5) / 1000);
    for (const wrong of ['2026-02-30T10:00', '2026-13-01T10:00', '2026-11-24T24:00', '2026-11-24T10:60', '1764', ''])
      expect(unixSecondsOfUtcField(wrong)).toBeUndefined();
    expect(utcFieldOfUnixSeconds(1_764_000_005)).toBe('2025-11-24T16:00:05');
    expect(unixSecondsOfUtcField(utcFieldOfUnixSeconds(1_764_000_005))).toBe(1_764_000_005);
  });
});

describe('the certificate signing request form', () => {
  it('trims the subject, splits the SANs on spaces and line breaks, and leaves empty optional fields out', () => {
    expect(
      certificateRequestBodyOf({
        commonName: ' Corner Shop ',
        organizationName: 'Corner Shop GmbH',
        organizationIdentifier: ' VATDE-123456789 ',
        countryName: 'DE ',
        sanDns: 'shop.example\n  till.shop.example ',
        sanUri: 'https://shop.example/support',
      }),
    ).toEqual({
      subject: {
        commonName: 'Corner Shop',
        organizationName: 'Corner Shop GmbH',
        organizationIdentifier: 'VATDE-123456789',
        countryName: 'DE',
      },
      sanDns: ['shop.example', 'till.shop.example'],
      sanUri: ['https://shop.example/support'],
    });
    expect(
      certificateRequestBodyOf({
        commonName: 'A',
        organizationName: 'B',
        organizationIdentifier: '  ',
        countryName: 'DE',
        sanDns: ' ',
      }),
    ).toEqual({ subject: { commonName: 'A', organizationName: 'B', countryName: 'DE' } });
  });
});

describe('the DC API protocols of a new request', () => {
  it('are sent in the order the form lists them, whatever order they were ticked in, unknown names left out', () => {
    expect(orderedDcApiProtocols(['org-iso-mdoc', 'openid4vp-v1-unsigned', 'openid4vp-v1-signed', 'dc-api-2'])).toEqual(
      ['openid4vp-v1-signed', 'openid4vp-v1-unsigned', 'org-iso-mdoc'],
    );
    expect(orderedDcApiProtocols([])).toEqual([]);
    expect(DC_API_PROTOCOL_CHOICES.map((choice) => choice.protocol).sort()).toEqual([...DC_API_PROTOCOLS].sort());
  });
});
