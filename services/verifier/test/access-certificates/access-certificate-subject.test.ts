import { describe, expect, it } from 'vitest';
import {
  checkAccessCertificateRequest,
  parseSemanticsIdentifier,
} from '../../src/domain/access-certificate-subject.js';

const subject = { commonName: 'Shop', organizationName: 'Shop GmbH', countryName: 'DE' };

describe('EN 319 412-1 semantics identifiers', () => {
  it.each([
    ['VATDE-123456789', { type: 'VAT', country: 'DE', value: '123456789' }],
    ['VATEU-372000041', { type: 'VAT', country: 'EU', value: '372000041' }],
    ['LEIXG-529900T8BM49AURSDO55', { type: 'LEI', country: 'XG', value: '529900T8BM49AURSDO55' }],
    ['NTRNL-12345678', { type: 'NTR', country: 'NL', value: '12345678' }],
    ['VATEL-123456789', { type: 'VAT', country: 'EL', value: '123456789' }],
    ['DE:HRB-12345', { country: 'DE', value: 'HRB-12345' }],
  ])('reads %s', (identifier, parts) => {
    expect(parseSemanticsIdentifier(identifier)).toEqual(parts);
  });

  it.each(['123456789', 'VAT-DE123', 'vatde-123', 'VATDE-', 'VATDE 123', 'VATDE-12 3', 'VATDEU-1'])(
    'refuses %s',
    (identifier) => {
      expect(parseSemanticsIdentifier(identifier)).toBeUndefined();
    },
  );
});

describe('a CSR request', () => {
  it('with a valid subject and SANs has no problem', () => {
    expect(
      checkAccessCertificateRequest({
        subject: { ...subject, organizationIdentifier: 'LEIXG-529900T8BM49AURSDO55' },
        sanDns: ['verifier.example.com'],
        sanUri: ['https://verifier.example.com/support'],
      }),
    ).toEqual([]);
  });

  it('names every problem with the pointer of its field', () => {
    const problems = checkAccessCertificateRequest({
      subject: { commonName: ' ', organizationName: 'x'.repeat(65), countryName: 'de', organizationIdentifier: '1234' },
      sanDns: ['Verifier.example.com', 'ok.example', '*.example.com'],
      sanUri: ['/relative', 'https://fine.example/x'],
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      '/subject/commonName',
      '/subject/organizationName',
      '/subject/countryName',
      '/subject/organizationIdentifier',
      '/sanDns/0',
      '/sanDns/2',
      '/sanUri/0',
    ]);
    expect(problems.every((problem) => problem.message.startsWith(`${problem.path}: `))).toBe(true);
  });

  it('limits the number of SANs', () => {
    const many = Array.from({ length: 11 }, (_, index) => `h${index}.example`);
    expect(checkAccessCertificateRequest({ subject, sanDns: many }).map((problem) => problem.path)).toEqual([
      '/sanDns',
    ]);
  });
});
