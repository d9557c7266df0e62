import { deflateSync } from 'node:zlib';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  countStatuses,
  decodeStatusListToken,
  listIdOf,
  MAX_LIST_BYTES,
  searchEntries,
  statusAt,
  statusName,
} from '../../src/domain/status-list-token.js';

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
    const decoded = decodeStatusListToken(await signedList(1, [0, 1, 0, 1, 1, 0, 0, 0, 1]));
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(decoded.list.bits).toBe(1);
    expect(decoded.list.size).toBe(16);
    expect([0, 1, 2, 3, 4, 8].map((index) => statusAt(decoded.list, index))).toEqual([0, 1, 0, 1, 1, 1]);
    expect(decoded.list.issuedAt).toBe(1_700_000_000);
    expect(decoded.list.signedWith).toBe('ES256, kid k1');
  });

  it('reads 2-bit entries (valid, invalid, suspended, application-specific)', async () => {
    const decoded = decodeStatusListToken(await signedList(2, [0, 1, 2, 3, 2]));
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
    const decoded = decodeStatusListToken(await signedList(1, [0, 1, 0, 1, 0, 1, 0, 1]));
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
    expect(decodeStatusListToken('not a token')).toEqual({ ok: false, problem: 'The token is not a JWT.' });
    const { privateKey } = await generateKeyPair('ES256');
    const noBits = await new SignJWT({ status_list: { bits: 3, lst: 'eNrbuRgAAhcBXQ' } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListToken(noBits)).toMatchObject({ ok: false, problem: expect.stringContaining('bits') });
    const notZlib = await new SignJWT({ status_list: { bits: 1, lst: 'AAAA' } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListToken(notZlib)).toMatchObject({ ok: false, problem: expect.stringContaining('zlib') });
  });

  it('stops inflating at the cap (a compression bomb is refused, not decoded)', async () => {
    const bomb = deflateSync(Buffer.alloc(MAX_LIST_BYTES + 1));
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({ status_list: { bits: 1, lst: bomb.toString('base64url') } })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    expect(decodeStatusListToken(token)).toMatchObject({ ok: false });
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
