import { deflateSync } from 'node:zlib';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  countStatuses,
  decodeStatusListJwt,
  decodeStatusListToken,
  listIdOf,
  MAX_LIST_BYTES,
  searchEntries,
  statusAt,
  statusName,
} from '../../src/domain/status-list-token.js';
import { signStatusListCwt } from '../support/status-list-cwt.js';

// Lists built here the way the draft's examples are (zlib over packed entries, least
// significant bits first), signed with jose: nothing shared with the decoder.
async function signedList(
  bits: 1 | 2 | 4 | 8,
  statuses: number[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const bytes = new Uint8Array(Math.ceil((statuses.length * bits) / 8));
  statuses.forEach((status, index) => {
    const offset = index * bits;
    bytes[Math.floor(offset / 8)]! |= status << (offset % 8);
  });
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT({ status_list: { bits, lst: deflateSync(bytes).toString('base64url') }, ...extra })
    .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', kid: 'k1' })
    .setSubject('https://status.example/status-lists/2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b')
    .setIssuedAt(1_700_000_000)
    .sign(privateKey);
}

describe('decoding a status list token', () => {
  it('reads 1-bit entries least significant bit first', async () => {
    const decoded = decodeStatusListJwt(await signedList(1, [0, 1, 0, 1, 1, 0, 0, 0, 1]));
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(decoded.list.bits).toBe(1);
    expect(decoded.list.size).toBe(16);
    expect([0, 1, 2, 3, 4, 8].map((index) => statusAt(decoded.list, index))).toEqual([0, 1, 0, 1, 1, 1]);
    expect(decoded.list.issuedAt).toBe(1_700_000_000);
    expect(decoded.list.signedWith).toBe('ES256, kid k1');
  });

  it('reads 2-bit entries (valid, invalid, suspended, application-specific)', async () => {
    const decoded = decodeStatusListJwt(await signedList(2, [0, 1, 2, 3, 2]));
    if (!decoded.ok) throw new Error(decoded.problem);
    expect([0, 1, 2, 3, 4].map((index) => statusName(statusAt(decoded.list, index)))).toEqual([
      'VALID',
      'INVALID (revoked)',
      'SUSPENDED',
      '0x03 (application-specific)',
      'SUSPENDED',
    ]);
    expect(Object.fromEntries(countStatuses(decoded.list))).toEqual({ 0: 4, 1: 1, 2: 2, 3: 1 });
  });

  it('finds one index, or the entries of one status a page at a time', async () => {
    const decoded = decodeStatusListJwt(await signedList(1, [0, 1, 0, 1, 0, 1, 0, 1]));
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(searchEntries(decoded.list, { index: 3, page: 1, pageSize: 2 })).toEqual({
      entries: [{ index: 3, status: 1 }],
      total: 1,
    });
    expect(searchEntries(decoded.list, { index: 99, page: 1, pageSize: 2 })).toEqual({ entries: [], total: 0 });
    expect(searchEntries(decoded.list, { status: 1, page: 2, pageSize: 2 })).toEqual({
      entries: [
        { index: 5, status: 1 },
        { index: 7, status: 1 },
      ],
      total: 4,
    });
    expect(searchEntries(decoded.list, { page: 2, pageSize: 3 }).entries.map((entry) => entry.index)).toEqual([
      3, 4, 5,
    ]);
  });

  it('refuses what is not a status list, naming the problem', async () => {
    expect(decodeStatusListJwt('not a token')).toEqual({ ok: false, problem: 'The token is not a JWT.' });
    const { privateKey } = await generateKeyPair('ES256');
    const noBits = await new SignJWT({ status_list: { bits: 3, lst: 'eNrbuRgAAhcBXQ' } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListJwt(noBits)).toMatchObject({ ok: false, problem: expect.stringContaining('bits') });
    const notZlib = await new SignJWT({ status_list: { bits: 1, lst: 'AAAA' } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListJwt(notZlib)).toMatchObject({ ok: false, problem: expect.stringContaining('zlib') });
  });

  it('stops inflating at the cap (a compression bomb is refused, not decoded)', async () => {
    const bomb = deflateSync(Buffer.alloc(MAX_LIST_BYTES + 1));
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ status_list: { bits: 1, lst: bomb.toString('base64url') } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListJwt(token)).toMatchObject({ ok: false });
  });
});

describe('decoding a status list token in CWT form', () => {
  // draft-ietf-oauth-status-list, examples/status_list_cwt.md (non-normative): the draft's
  // 1-bit list of 16 entries, 0xb9 0xa3, signed ES256 with kid "12".
  const DRAFT_EXAMPLE =
    'd2845820a2012610781a6170706c69636174696f6e2f7374617475736c6973742b63' +
    '7774a1044231325850a502782168747470733a2f2f6578616d706c652e636f6d2f73' +
    '74617475736c697374732f31061a648c5bea041a8898dfea19fffe19a8c019fffda2' +
    '646269747301636c73744a78dadbb918000217015d584093fa4d01032b18c35e2fe1' +
    '101b77fd6cc9440022caa4694450c4e4e9feab4e99d1fa6d9772ce2bf3a12e0323de' +
    'd7c982c5e101a5e67f0cbc1e2b6f57ce99c279';

  it("reads the draft's example as the draft says", () => {
    const decoded = decodeStatusListToken({
      mediaType: 'application/statuslist+cwt',
      body: Buffer.from(DRAFT_EXAMPLE, 'hex'),
    });
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(decoded.list).toMatchObject({
      format: 'cwt',
      subject: 'https://example.com/statuslists/1',
      issuedAt: 1_686_920_170,
      expiresAt: 2_291_720_170,
      ttl: 43_200,
      bits: 1,
      size: 16,
      signedWith: 'ES256 (-7), kid 12',
    });
    expect(Array.from({ length: 16 }, (_, index) => statusAt(decoded.list, index))).toEqual([
      1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1,
    ]);
  });

  it('reads 2-bit entries of a list signed here, and refuses what is not a COSE_Sign1', () => {
    const cwt = signStatusListCwt({
      uri: 'https://status.example/status-lists/2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b',
      bits: 2,
      statuses: [0, 1, 2, 3],
      iat: 1_700_000_000,
      kid: 'issuer-1',
    });
    const decoded = decodeStatusListToken({ mediaType: 'application/statuslist+cwt', body: cwt });
    if (!decoded.ok) throw new Error(decoded.problem);
    expect([0, 1, 2, 3].map((index) => statusAt(decoded.list, index))).toEqual([0, 1, 2, 3]);
    expect(decoded.list.signedWith).toBe('ES256 (-7), kid issuer-1');
    expect(decodeStatusListToken({ mediaType: 'application/statuslist+cwt', body: new Uint8Array([1, 2]) })).toEqual({
      ok: false,
      problem: 'The token is not a COSE_Sign1 (a CBOR array of four members under tag 18).',
    });
    expect(decodeStatusListToken({ mediaType: 'text/html', body: cwt })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('neither application/statuslist+jwt nor application/statuslist+cwt'),
    });
  });
});

describe('a list id from what a person pastes', () => {
  it('takes an id or a status list address, and nothing else', () => {
    const id = '2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b';
    expect(listIdOf(id)).toBe(id);
    expect(listIdOf(` https://status.example/status-lists/${id.toUpperCase()} `)).toBe(id);
    expect(listIdOf(`https://status.example/status-lists/${id}?x=1`)).toBe(id);
    expect(listIdOf('https://status.example/other/thing')).toBeUndefined();
    expect(listIdOf(`${id}/../x`)).toBeUndefined();
  });
});
