import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Tag } from 'cbor-x';
import { coseVerify } from 'cose-kit';
import { describe, expect, it } from 'vitest';
import { validateStatusListCwt } from '../../src/domain/validate-status-list-cwt.js';
import {
  cbor,
  cwtIssuerKey,
  DRAFT_CWT_EXAMPLE_HEX,
  signCoseSign1,
  signStatusListCwt,
  statusListClaims,
  type CwtOptions,
} from '../support/status-list-cwt.js';

const ID = '2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b';
const SUB = `https://status.example.com/status-lists/${ID}`;
const MAX = 16 * 1024 * 1024;

function validate(cwt: string, maxListBytes = MAX) {
  return validateStatusListCwt({ cwt, listId: ID, maxListBytes });
}

function problemsOf(options: Partial<CwtOptions>, maxListBytes = MAX) {
  const result = validate(signStatusListCwt({ sub: SUB, ...options }).base64url, maxListBytes);
  return result.ok ? [] : result.problems;
}

/**
 * The four members of a tagged COSE_Sign1, read with cbor-x past its one-byte tag 18
 * (cose-kit registers its own decoder for tag 18 with cbor-x, process-wide).
 */
function members(sign1: Buffer): [Buffer, unknown, Buffer, Buffer] {
  expect(sign1[0]).toBe(0xd2);
  return cbor.decode(sign1.subarray(1)) as [Buffer, unknown, Buffer, Buffer];
}

/** A COSE_Sign1 of arbitrary members, tagged 18, as base64url. */
function rawSign1(members: unknown[], tag: number | null = 18): string {
  return cbor.encode(tag === null ? members : new Tag(members, tag)).toString('base64url');
}

describe('validateStatusListCwt', () => {
  it('accepts a real ES256-signed CWT (which cose-kit verifies) and reports its claims', async () => {
    const { bytes, base64url } = signStatusListCwt({
      sub: SUB,
      iat: 1_700_000_100,
      exp: 1_800_000_000,
      ttl: 600,
      bits: 2,
      statuses: [1, 2, 0, 3],
    });
    expect((await coseVerify(bytes, cwtIssuerKey.publicKey)).isValid).toBe(true);
    const result = validate(`\n ${base64url}  `);
    expect(result.ok && Buffer.compare(result.cwt, bytes)).toBe(0);
    expect(result.ok && result.claims).toEqual({
      sub: SUB,
      iat: 1_700_000_100,
      exp: 1_800_000_000,
      ttl: 600,
      bits: 2,
      listBytes: 1,
    });
  });

  it("reproduces the draft's CWT example: same header and claims bytes, decoded to the same claims", () => {
    const example = Buffer.from(DRAFT_CWT_EXAMPLE_HEX, 'hex');
    // Read with cbor-x (not the service's decoder): tag 18 (0xd2) around [protected, unprotected, payload, signature].
    expect(example[0]).toBe(0xd2);
    const [protectedBytes, unprotected, payload, signature] = members(example);
    expect(signature).toHaveLength(64);
    expect(unprotected).toEqual(new Map([[4, Buffer.from('12')]]));
    // The same header and claims, written by an issuer with cbor-x, give the draft's very bytes.
    const header = new Map<number, unknown>([
      [1, -7],
      [16, 'application/statuslist+cwt'],
    ]);
    expect(cbor.encode(header)).toEqual(protectedBytes);
    const claims = statusListClaims({
      sub: 'https://example.com/statuslists/1',
      iat: 1686920170,
      exp: 2291720170,
      ttl: 43200,
      lst: Buffer.from('78dadbb918000217015d', 'hex'),
    });
    expect(cbor.encode(claims)).toEqual(payload);

    // The service reads it as the draft says, and refuses only its sub, which names no list of this service.
    const result = validateStatusListCwt({
      cwt: example.toString('base64url'),
      listId: ID,
      maxListBytes: MAX,
    });
    expect(result).toEqual({
      ok: false,
      problems: [{ path: '/payload/2', message: `sub (2) must end with /status-lists/${ID}` }],
    });

    // The same token for one of this service's lists (its sub, signed anew) is accepted with the draft's claims.
    const mine = signStatusListCwt({
      sub: SUB,
      iat: 1686920170,
      exp: 2291720170,
      ttl: 43200,
      lst: Buffer.from('78dadbb918000217015d', 'hex'),
      unprotectedHeader: new Map([[4, Buffer.from('12')]]),
    });
    expect(validate(mine.base64url)).toMatchObject({
      ok: true,
      claims: { sub: SUB, iat: 1686920170, exp: 2291720170, ttl: 43200, bits: 1, listBytes: 2 },
    });
  });

  it('accepts the spec vector for 2 bits and a list without exp or ttl', () => {
    const result = validate(
      signStatusListCwt({ sub: SUB, exp: null, bits: 2, lst: Buffer.from('78da3be9f2130003df0207', 'hex') }).base64url,
    );
    expect(result.ok && result.claims).toEqual({ sub: SUB, iat: 1_700_000_000, bits: 2, listBytes: 3 });
  });

  it('refuses what is not base64url of CBOR, naming the likely mistake', () => {
    const { bytes } = signStatusListCwt({ sub: SUB });
    // Standard base64 (+, /, padding) is refused with the reason.
    expect(validate('0oRYIKIBJhB4+/8=')).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('base64url without padding') }],
    });
    expect(validate(`${bytes.toString('base64url')}==`)).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('without padding') }],
    });
    expect(validate('not base64!').ok).toBe(false);
    expect(validate(bytes.toString('hex'))).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('looks like hex') }],
    });
    // Bytes that stop inside an item say so.
    expect(validate(signStatusListCwt({ sub: SUB }).bytes.subarray(0, 40).toString('base64url'))).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('the bytes end before the item does') }],
    });
    expect(validate('AQ')).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('not a COSE_Sign1') }],
    });
  });

  it('refuses bytes after the CWT and maps with a label twice', () => {
    const { bytes } = signStatusListCwt({ sub: SUB });
    expect(validate(Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'))).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('not one well-formed CBOR item') }],
    });
    // A claims map with sub (2) twice: two readers could take different values.
    const payload = Buffer.concat([
      Buffer.from([0xa4]),
      cbor.encode(2),
      cbor.encode(SUB),
      cbor.encode(2),
      cbor.encode('https://evil.example/status-lists/x'),
      cbor.encode(6),
      cbor.encode(1_700_000_000),
      cbor.encode(65533),
      cbor.encode(
        new Map<string, unknown>([
          ['bits', 1],
          ['lst', Buffer.from('78dadbb918000217015d', 'hex')],
        ]),
      ),
    ]);
    const header = new Map<number, unknown>([
      [1, -7],
      [16, 'application/statuslist+cwt'],
    ]);
    const { protectedBytes, signature } = signCoseSign1(header, new Map(), payload);
    const result = validate(rawSign1([protectedBytes, new Map(), payload, signature]));
    expect(result).toEqual({
      ok: false,
      problems: [{ path: '/payload', message: expect.stringContaining('not well-formed CBOR (Duplicate key') }],
    });
  });

  it('requires the COSE_Sign1 tag (18): not the CWT tag, not a COSE_Mac0, not untagged', () => {
    const messageOf = (tag: number | null) => {
      const result = validate(signStatusListCwt({ sub: SUB, tag }).base64url);
      return result.ok ? undefined : result.problems[0]?.message;
    };
    expect(messageOf(61)).toContain('CWT tag (61)');
    expect(messageOf(17)).toContain('COSE_Mac0 (tag 17) is not accepted');
    expect(messageOf(null)).toContain('not tagged');
    expect(messageOf(98)).toContain('tagged 98');
    // The draft forbids tag 61 around the token even when the COSE_Sign1 inside is well formed.
    const inside = signStatusListCwt({ sub: SUB }).bytes;
    expect(validate(Buffer.concat([Buffer.from([0xd8, 61]), inside]).toString('base64url'))).toEqual({
      ok: false,
      problems: [{ path: '/cwt', message: expect.stringContaining('CWT tag (61)') }],
    });
    expect(validate(rawSign1([Buffer.alloc(0), new Map(), Buffer.alloc(0)])).ok).toBe(false);
  });

  it('requires a non-empty signature', () => {
    expect(problemsOf({ signature: new Uint8Array() })).toEqual([
      { path: '/signature', message: expect.stringContaining('empty') },
    ]);
  });

  it('requires typ application/statuslist+cwt and an algorithm, both in the protected header', () => {
    expect(problemsOf({ protectedHeader: new Map([[16, 'application/cwt']]) })).toEqual([
      { path: '/protected/16', message: 'typ (16) must be "application/statuslist+cwt"' },
    ]);
    expect(problemsOf({ protectedHeader: new Map([[16, undefined]]) }).map((p) => p.path)).toEqual(['/protected/16']);
    expect(
      problemsOf({
        protectedHeader: new Map([[16, undefined]]),
        unprotectedHeader: new Map([[16, 'application/statuslist+cwt']]),
      })[0]?.message,
    ).toContain('must be in the protected header');
    expect(problemsOf({ protectedHeader: new Map([[1, undefined]]) })[0]).toEqual({
      path: '/protected/1',
      message: expect.stringContaining('signature algorithm'),
    });
    expect(problemsOf({ protectedHeader: new Map([[1, 0]]) })[0]?.path).toBe('/protected/1');
    expect(problemsOf({ protectedHeader: new Map([[1, 'none']]) })[0]).toEqual({
      path: '/protected/1',
      message: expect.stringContaining('"none" is not allowed'),
    });
    expect(
      problemsOf({ protectedHeader: new Map([[1, undefined]]), unprotectedHeader: new Map([[1, -7]]) })[0]?.message,
    ).toContain('must be in the protected header');
    // An empty protected header (the empty byte string) has neither.
    expect(
      problemsOf({
        protectedHeader: new Map([
          [1, undefined],
          [16, undefined],
        ]),
      }).map((p) => p.path),
    ).toEqual(['/protected/16', '/protected/1']);
    expect(problemsOf({ protectedHeader: new Map([[1, 'ES256']]) })).toEqual([]);
  });

  it('requires the headers and payload in their CBOR shapes, and an attached payload', () => {
    const { bytes } = signStatusListCwt({ sub: SUB });
    const [protectedBytes, , payload, signature] = members(bytes);
    const pathsOf = (members: unknown[]) => {
      const result = validate(rawSign1(members));
      return result.ok ? [] : result.problems.map((p) => p.path);
    };
    expect(pathsOf([protectedBytes, [], payload, signature])).toEqual(['/unprotected']);
    expect(pathsOf([new Map(), new Map(), payload, signature])).toEqual(['/protected']);
    expect(pathsOf([cbor.encode([1]), new Map(), payload, signature])).toEqual(['/protected']);
    expect(pathsOf([protectedBytes, new Map(), null, signature])).toEqual(['/payload']);
    expect(pathsOf([protectedBytes, new Map(), cbor.encode([1, 2]), signature])).toEqual(['/payload']);
    expect(pathsOf([protectedBytes, new Map(), payload, 'sig'])).toEqual(['/signature']);
  });

  it('requires sub (2) to be a URI naming this list', () => {
    expect(problemsOf({ claims: new Map([[2, undefined]]) })[0]?.path).toBe('/payload/2');
    expect(problemsOf({ sub: 'not a uri' })[0]?.message).toBe('sub (2) must be an absolute URI');
    expect(problemsOf({ sub: 'https://x.example/status-lists/00000000-0000-4000-8000-000000000000' })[0]?.message).toBe(
      `sub (2) must end with /status-lists/${ID}`,
    );
    expect(problemsOf({ sub: `${SUB}?v=1` })[0]?.path).toBe('/payload/2');
    expect(problemsOf({ sub: SUB.toUpperCase().replace('HTTPS', 'https') })).toEqual([]);
    // The claim by its JWT name is not the CWT claim.
    expect(
      problemsOf({
        claims: new Map<unknown, unknown>([
          [2, undefined],
          ['sub', SUB],
        ]),
      })[0]?.path,
    ).toBe('/payload/2');
  });

  it('checks iat (6), exp (4) and ttl (65534) as the JWT rules do', () => {
    expect(problemsOf({ claims: new Map([[6, '1700000000']]) })[0]?.path).toBe('/payload/6');
    expect(problemsOf({ claims: new Map([[6, 1.5]]) })[0]?.path).toBe('/payload/6');
    expect(problemsOf({ claims: new Map([[6, -1]]) })[0]?.path).toBe('/payload/6');
    // A NumericDate carries no tag 1 (RFC 8392 §2).
    expect(problemsOf({ claims: new Map([[6, new Tag(1_700_000_000, 1)]]) })[0]?.path).toBe('/payload/6');
    expect(problemsOf({ exp: 1_700_000_000 })[0]).toEqual({
      path: '/payload/4',
      message: 'exp (4) must be later than iat (6)',
    });
    expect(problemsOf({ claims: new Map([[4, 'soon']]) })[0]?.path).toBe('/payload/4');
    expect(problemsOf({ ttl: 0 })[0]?.path).toBe('/payload/65534');
    expect(problemsOf({ ttl: -5 })[0]?.path).toBe('/payload/65534');
    expect(problemsOf({ claims: new Map([[65534, 2.5]]) })[0]?.path).toBe('/payload/65534');
  });

  it('checks the status list (65533), bits and aggregation_uri', () => {
    expect(problemsOf({ statusList: 'x' })[0]).toEqual({
      path: '/payload/65533',
      message: 'the status list (65533) must be a map with bits and lst',
    });
    expect(problemsOf({ bits: 3 as never })[0]).toEqual({
      path: '/payload/65533/bits',
      message: 'bits must be 1, 2, 4 or 8',
    });
    expect(problemsOf({ aggregationUri: 'relative/path' })[0]?.path).toBe('/payload/65533/aggregation_uri');
    expect(problemsOf({ aggregationUri: 'https://status.example.com/status-lists/aggregation' })).toEqual([]);
  });

  it('requires lst to be a byte string holding a zlib stream with at least one byte', () => {
    const lstProblem = (lst: unknown) =>
      problemsOf({
        statusList: new Map<string, unknown>([
          ['bits', 1],
          ['lst', lst],
        ]),
      })[0];
    expect(lstProblem('eNrbuRgAAhcBXQ')?.message).toBe('lst must be a byte string');
    expect(lstProblem(deflateRawSync(Buffer.from([1, 2])))?.message).toContain('zlib');
    expect(lstProblem(gzipSync(Buffer.from([1, 2])))?.message).toContain('zlib');
    expect(lstProblem(deflateSync(Buffer.alloc(0)))?.message).toContain('empty');
  });

  it('refuses a compression bomb without inflating it past the cap', () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    expect(problemsOf({ lst: bomb }, 1024 * 1024)[0]).toEqual({
      path: '/payload/65533/lst',
      message: 'lst inflates to more than 1048576 bytes, the most this service accepts',
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('reports every failed rule at once', () => {
    const problems = problemsOf({
      protectedHeader: new Map<number, unknown>([
        [1, undefined],
        [16, 'x'],
      ]),
      signature: new Uint8Array(),
      sub: 'nope',
      claims: new Map([[6, 'x']]),
      bits: 9 as never,
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      '/payload/2',
      '/payload/6',
      '/payload/65533/bits',
      '/protected/1',
      '/protected/16',
      '/signature',
    ]);
  });
});
