import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { validateStatusListJwt } from '../../src/domain/validate-status-list-jwt.js';
import { encodeLst, packStatuses, rawToken, signStatusListToken } from '../support/status-list-token.js';

const ID = '2f0d3b9c-5e3a-4a8e-9d6b-1c2d3e4f5a6b';
const SUB = `https://status.example.com/status-lists/${ID}`;
const MAX = 16 * 1024 * 1024;
const header = { alg: 'ES256', typ: 'statuslist+jwt' };
const payload = (overrides: Record<string, unknown> = {}) => ({
  sub: SUB,
  iat: 1_700_000_000,
  status_list: { bits: 1, lst: 'eNrbuRgAAhcBXQ' },
  ...overrides,
});

function problemsOf(jwt: string, maxListBytes = MAX) {
  const result = validateStatusListJwt({ jwt, listId: ID, maxListBytes });
  return result.ok ? [] : result.problems;
}

describe('validateStatusListJwt', () => {
  it('accepts a real signed token and reports its claims', async () => {
    const jwt = await signStatusListToken({
      sub: SUB,
      iat: 1_700_000_100,
      exp: 1_800_000_000,
      ttl: 600,
      bits: 2,
      statuses: [1, 2, 0, 3],
    });
    const result = validateStatusListJwt({ jwt: `  ${jwt}\n`, listId: ID, maxListBytes: MAX });
    expect(result).toEqual({
      ok: true,
      jwt,
      claims: { sub: SUB, iat: 1_700_000_100, exp: 1_800_000_000, ttl: 600, bits: 2, listBytes: 1 },
    });
  });

  it('accepts the spec test vectors for lst (1 and 2 bits) and inflates them to their byte counts', () => {
    const one = validateStatusListJwt({ jwt: rawToken(header, payload()), listId: ID, maxListBytes: MAX });
    expect(one.ok && one.claims.listBytes).toBe(2);
    const two = validateStatusListJwt({
      jwt: rawToken(header, payload({ status_list: { bits: 2, lst: 'eNo76fITAAPfAgc' } })),
      listId: ID,
      maxListBytes: MAX,
    });
    expect(two.ok && two.claims).toMatchObject({ bits: 2, listBytes: 3 });
  });

  it('packs statuses as the spec vectors say (LSB first) and compresses with zlib', () => {
    expect(packStatuses([1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1], 1)).toEqual(Buffer.from([0xb9, 0xa3]));
    expect(packStatuses([1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3], 2)).toEqual(Buffer.from([0xc9, 0x44, 0xf9]));
    expect(encodeLst(Buffer.from([0xb9, 0xa3]))).toBe('eNrbuRgAAhcBXQ');
    expect(Buffer.from('eNo76fITAAPfAgc', 'base64url').toString('hex')).toBe('78da3be9f2130003df0207');
  });

  it('refuses a value that is not three segments', () => {
    expect(problemsOf('abc.def')).toEqual([
      { path: '/jwt', message: expect.stringContaining('three base64url segments') },
    ]);
  });

  it('says so when the JWT is wrapped in base64 once more', async () => {
    const jwt = await signStatusListToken({ sub: SUB });
    const [problem] = problemsOf(Buffer.from(jwt).toString('base64'));
    expect(problem?.message).toContain('wrapped in base64');
  });

  it('requires a non-empty signature', () => {
    expect(problemsOf(rawToken(header, payload(), ''))).toEqual([
      { path: '/signature', message: expect.stringContaining('empty') },
    ]);
  });

  it('requires JSON header and payload', () => {
    expect(
      problemsOf(
        `${Buffer.from('not json').toString('base64url')}.${Buffer.from('[1]').toString('base64url')}.c2ln`,
      ).map((p) => p.path),
    ).toEqual(['/header', '/payload']);
    expect(problemsOf('e30=.e30.c2ln')[0]?.path).toBe('/header');
  });

  it('requires typ statuslist+jwt and a real alg', () => {
    expect(problemsOf(rawToken({ alg: 'ES256', typ: 'JWT' }, payload())).map((p) => p.path)).toEqual(['/header/typ']);
    expect(problemsOf(rawToken({ alg: 'none', typ: 'statuslist+jwt' }, payload()))[0]).toEqual({
      path: '/header/alg',
      message: expect.stringContaining('none'),
    });
    expect(problemsOf(rawToken({ typ: 'statuslist+jwt' }, payload()))[0]?.path).toBe('/header/alg');
  });

  it('requires sub to be a URI naming this list', () => {
    expect(problemsOf(rawToken(header, payload({ sub: undefined })))[0]?.path).toBe('/payload/sub');
    expect(problemsOf(rawToken(header, payload({ sub: 'not a uri' })))[0]?.message).toContain('absolute URI');
    expect(
      problemsOf(
        rawToken(header, payload({ sub: 'https://x.example/status-lists/00000000-0000-4000-8000-000000000000' })),
      )[0]?.message,
    ).toContain(`/status-lists/${ID}`);
    expect(problemsOf(rawToken(header, payload({ sub: SUB.toUpperCase().replace('HTTPS', 'https') })))).toEqual([]);
  });

  it('checks iat, exp and ttl', () => {
    expect(problemsOf(rawToken(header, payload({ iat: '1700000000' })))[0]?.path).toBe('/payload/iat');
    expect(problemsOf(rawToken(header, payload({ iat: 1.5 })))[0]?.path).toBe('/payload/iat');
    expect(problemsOf(rawToken(header, payload({ exp: 1_700_000_000 })))[0]).toEqual({
      path: '/payload/exp',
      message: 'exp must be later than iat',
    });
    expect(problemsOf(rawToken(header, payload({ ttl: 0 })))[0]?.path).toBe('/payload/ttl');
    expect(problemsOf(rawToken(header, payload({ ttl: -5 })))[0]?.path).toBe('/payload/ttl');
  });

  it('checks status_list, bits and aggregation_uri', () => {
    expect(problemsOf(rawToken(header, payload({ status_list: 'x' })))[0]?.path).toBe('/payload/status_list');
    expect(problemsOf(rawToken(header, payload({ status_list: { bits: 3, lst: 'eNrbuRgAAhcBXQ' } })))[0]?.path).toBe(
      '/payload/status_list/bits',
    );
    expect(
      problemsOf(rawToken(header, payload({ status_list: { bits: 1, lst: 'eNrbuRgAAhcBXQ', aggregation_uri: 5 } })))[0]
        ?.path,
    ).toBe('/payload/status_list/aggregation_uri');
  });

  it('requires lst to be base64url of a zlib stream with at least one byte', () => {
    const lstProblem = (lst: unknown) => problemsOf(rawToken(header, payload({ status_list: { bits: 1, lst } })))[0];
    expect(lstProblem(42)?.message).toBe('lst must be a string');
    expect(lstProblem('eNrbuRgAAhcBXQ==')?.message).toContain('base64url');
    expect(lstProblem(deflateRawSync(Buffer.from([1, 2])).toString('base64url'))?.message).toContain('zlib');
    expect(lstProblem(gzipSync(Buffer.from([1, 2])).toString('base64url'))?.message).toContain('zlib');
    expect(lstProblem(deflateSync(Buffer.alloc(0)).toString('base64url'))?.message).toContain('empty');
  });

  it('refuses a compression bomb without inflating it past the cap', () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }).toString('base64url');
    expect(bomb.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const [problem] = problemsOf(rawToken(header, payload({ status_list: { bits: 1, lst: bomb } })), 1024 * 1024);
    expect(problem).toEqual({
      path: '/payload/status_list/lst',
      message: 'lst inflates to more than 1048576 bytes, the most this service accepts',
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('reports every failed rule at once', () => {
    const problems = problemsOf(
      rawToken({ alg: 'none', typ: 'x' }, { sub: 5, iat: 'x', status_list: { bits: 9, lst: '!' } }, ''),
    );
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        '/header/alg',
        '/header/typ',
        '/payload/iat',
        '/payload/status_list/bits',
        '/payload/status_list/lst',
        '/payload/sub',
        '/signature',
      ].sort(),
    );
  });
});
