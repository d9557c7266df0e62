import { describe, expect, it } from 'vitest';
import { isUuid, readPemBlocks, splitPemCertificates, toPem } from '../src/index.js';

describe('isUuid', () => {
  it('takes canonical UUIDs in either case and nothing else', () => {
    const id = '0b6c3f43-9c1e-4f0e-a1d2-3b4c5d6e7f80';
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(true);
    expect(isUuid(`urn:uuid:${id}`)).toBe(false);
    expect(isUuid(id.replace(/-/g, ''))).toBe(false);
    expect(isUuid(`${id} `)).toBe(false);
  });
});

describe('PEM', () => {
  const der = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

  it('writes 64-character lines and reads the same bytes back', () => {
    const pem = toPem('CERTIFICATE', der);
    const lines = pem.trim().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
    expect(lines.slice(1, -1).every((line) => line.length <= 64)).toBe(true);
    expect(readPemBlocks(pem)).toEqual([{ label: 'CERTIFICATE', der, pem: pem.trim() }]);
  });

  it('splits a bundle into its certificates in order, skipping other blocks and text between them', () => {
    const a = toPem('CERTIFICATE', Buffer.from('a'));
    const b = toPem('CERTIFICATE', Buffer.from('b'));
    const key = toPem('PRIVATE KEY', Buffer.from('k'));
    const bundle = `# issuer A\n${a}\n${key}subject=B\n${b}`;
    expect(splitPemCertificates(bundle)).toEqual([a.trim(), b.trim()]);
    expect(readPemBlocks(bundle).map((block) => block.label)).toEqual(['CERTIFICATE', 'PRIVATE KEY', 'CERTIFICATE']);
  });

  it('does not pair a BEGIN with a different END label', () => {
    expect(readPemBlocks('-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----\n')).toEqual([]);
  });
});
