import { describe, expect, it } from 'vitest';
import {
  buildSessionTranscript,
  computeJwkThumbprint,
  encodeTranscriptAsDataItem,
} from '../../src/verification/session-transcript.js';

// OpenID4VP 1.0 Appendix B.2.6 vectors, as listed in shared/spec/vectors.md.
const encryptionJwk = {
  kty: 'EC',
  crv: 'P-256',
  use: 'enc',
  alg: 'ECDH-ES',
  kid: '1',
  x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
  y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
};
const nonce = 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA';

describe('buildSessionTranscript', () => {
  it('reproduces the OpenID4VPHandover vector (redirect flow, encrypted response)', async () => {
    const transcript = buildSessionTranscript({
      flow: { kind: 'redirect', clientId: 'x509_san_dns:example.com', responseUri: 'https://example.com/response' },
      nonce,
      jwkThumbprint: await computeJwkThumbprint(encryptionJwk),
    });
    expect(Buffer.from(transcript).toString('hex')).toBe(
      '83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac',
    );
  });

  it('reproduces the OpenID4VPDCAPIHandover vector (origin without the origin: prefix)', async () => {
    const transcript = buildSessionTranscript({
      flow: { kind: 'dc_api', origin: 'https://example.com' },
      nonce,
      jwkThumbprint: await computeJwkThumbprint(encryptionJwk),
    });
    expect(Buffer.from(transcript).toString('hex')).toBe(
      '83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a',
    );
  });

  it('puts CBOR null in place of the thumbprint when the response is not encrypted', () => {
    const withNull = buildSessionTranscript({
      flow: { kind: 'dc_api', origin: 'https://example.com' },
      nonce,
      jwkThumbprint: null,
    });
    const encrypted = buildSessionTranscript({
      flow: { kind: 'dc_api', origin: 'https://example.com' },
      nonce,
      jwkThumbprint: new Uint8Array(32),
    });
    expect(Buffer.from(withNull).equals(Buffer.from(encrypted))).toBe(false);
    expect(withNull.length).toBe(encrypted.length);
  });

  it('wraps the transcript in CBOR tag 24 for the mdoc verifier', () => {
    const transcript = buildSessionTranscript({
      flow: { kind: 'dc_api', origin: 'https://example.com' },
      nonce,
      jwkThumbprint: null,
    });
    const wrapped = Buffer.from(encodeTranscriptAsDataItem(transcript));
    expect(wrapped.subarray(0, 3).toString('hex')).toBe('d81858');
    expect(wrapped[3]).toBe(transcript.length);
    expect(wrapped.subarray(4).equals(Buffer.from(transcript))).toBe(true);
  });
});
