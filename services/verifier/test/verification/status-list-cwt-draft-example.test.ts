import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readStatusListEntry } from '../../src/verification/index.js';
import { openStatusListCwt } from '../../src/verification/status-list-cwt.js';

// The draft's own Status List Token in CWT form (draft-ietf-oauth-status-list,
// "Status List Token in CWT Format", examples/status_list_cwt), and the public half of
// the example key the draft's examples are signed with (kid "12"; the draft's
// repository, src/util.py). The verifier's reader and COSE signature check must accept
// the very bytes the draft prints, and read the draft's 1-bit example list from them.
const DRAFT_CWT_EXAMPLE_HEX =
  'd2845820a2012610781a6170706c69636174696f6e2f7374617475736c6973742b63' +
  '7774a1044231325850a502782168747470733a2f2f6578616d706c652e636f6d2f73' +
  '74617475736c697374732f31061a648c5bea041a8898dfea19fffe19a8c019fffda2' +
  '646269747301636c73744a78dadbb918000217015d584093fa4d01032b18c35e2fe1' +
  '101b77fd6cc9440022caa4694450c4e4e9feab4e99d1fa6d9772ce2bf3a12e0323de' +
  'd7c982c5e101a5e67f0cbc1e2b6f57ce99c279';
const DRAFT_EXAMPLE_KEY = createPublicKey({
  key: {
    kty: 'EC',
    crv: 'P-256',
    x: 'I3HWm_0Ds1dPMI-IWmf4mBmH-YaeAVbPVu7vB27CxXo',
    y: '6N_d5Elj9bs1htgV3okJKIdbHEpkgTmAluYKJemzn1M',
  },
  format: 'jwk',
});
/** The draft's example 1-bit list (examples/status_list_encoding_json: byte_array = [0xb9, 0xa3]). */
const DRAFT_STATUSES = [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1];

const example = () => Buffer.from(DRAFT_CWT_EXAMPLE_HEX, 'hex');

describe("the draft's CWT example", () => {
  it('opens with its typ, claims and list, and its signature verifies with the example key', async () => {
    const token = openStatusListCwt(example());
    expect(token).toMatchObject({
      format: 'cwt',
      typ: 'application/statuslist+cwt',
      claims: { sub: 'https://example.com/statuslists/1', iat: 1686920170, exp: 2291720170, ttl: 43200 },
    });
    await expect(token.verifySignature(DRAFT_EXAMPLE_KEY)).resolves.toBeUndefined();
    const { bits, lst } = token.claims.statusList as { bits: number; lst: Uint8Array };
    expect(Buffer.from(lst).toString('hex')).toBe('78dadbb918000217015d');
    expect(DRAFT_STATUSES.map((_, idx) => readStatusListEntry({ lst, bits, idx, maxInflatedBytes: 1024 }))).toEqual(
      DRAFT_STATUSES,
    );
    // Its kid ("12") names no DID and it carries no x5chain: a verifier needs the issuer's certificate to trust it.
    expect(token.signer).toMatchObject({ ok: false });
  });

  it('refuses the example with one bit of its signature, or of its payload, changed', async () => {
    const signatureFlipped = example();
    signatureFlipped[signatureFlipped.length - 1]! ^= 0x01;
    await expect(openStatusListCwt(signatureFlipped).verifySignature(DRAFT_EXAMPLE_KEY)).rejects.toThrow(
      'signature is invalid',
    );
    // The last character of the sub text ("…/statuslists/1" → "…/statuslists/0").
    const payloadChanged = example();
    const at = payloadChanged.indexOf(Buffer.from('statuslists/1')) + 'statuslists/'.length;
    payloadChanged[at] = '0'.charCodeAt(0);
    const opened = openStatusListCwt(payloadChanged);
    expect(opened.claims.sub).toBe('https://example.com/statuslists/0');
    await expect(opened.verifySignature(DRAFT_EXAMPLE_KEY)).rejects.toThrow('signature is invalid');
  });
});
