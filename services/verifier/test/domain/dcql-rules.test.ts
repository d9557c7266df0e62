import { describe, expect, it } from 'vitest';
import { requireSupportedTrustedAuthorities, validateDcqlQuery, walletDcqlQuery } from '../../src/domain/dcql.js';
import { bothQuery, mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';

const paths = (query: unknown, pointer = '/dcql') =>
  validateDcqlQuery({ query, pointer }).map((problem) => problem.path);

describe('validateDcqlQuery', () => {
  it('accepts SD-JWT VC, mdoc and credential sets', () => {
    expect(paths(sdJwtQuery())).toEqual([]);
    expect(paths(mdocQuery())).toEqual([]);
    expect(paths(bothQuery())).toEqual([]);
  });

  it('accepts trusted_authorities of type aki and refuses every other type by its path', () => {
    const query = sdJwtQuery();
    const credential = query.credentials[0] as Record<string, unknown>;
    credential.trusted_authorities = [{ type: 'aki', values: ['s9tIpPmhxdiuNkHMEWNpYim8S8Y'] }];
    expect(paths(query)).toEqual([]);
    credential.trusted_authorities = [
      { type: 'etsi_tl', values: ['https://tl.example/list'] },
      { type: 'aki', values: ['s9tIpPmhxdiuNkHMEWNpYim8S8Y'] },
      { type: 'openid_federation', values: ['https://fed.example'] },
    ];
    const problems = validateDcqlQuery({ query, pointer: '/dcql' });
    expect(problems.map((problem) => problem.path)).toEqual([
      '/dcql/credentials/0/trusted_authorities/0/type',
      '/dcql/credentials/0/trusted_authorities/2/type',
    ]);
    expect(problems[0]!.message).toContain('"etsi_tl"');
  });

  it('refuses a stored query naming an unsupported trusted authority type (400 INVALID_DCQL)', () => {
    const query = sdJwtQuery();
    (query.credentials[0] as Record<string, unknown>).trusted_authorities = [
      { type: 'etsi_tl', values: ['https://tl.example/list'] },
    ];
    expect(() => requireSupportedTrustedAuthorities({ query, pointer: '/templateJson/dcql/query' })).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'INVALID_DCQL' }),
    );
    expect(() => requireSupportedTrustedAuthorities({ query: sdJwtQuery(), pointer: '' })).not.toThrow();
  });

  it('requires combine and accepts only "all"', () => {
    const { combine: _c, ...withoutCombine } = sdJwtQuery();
    expect(paths(withoutCombine)).toEqual(['/dcql/combine']);
    expect(paths({ ...sdJwtQuery(), combine: 'any' })).toEqual(['/dcql/combine']);
  });

  it('names an unknown format once, not once per format the library knows', () => {
    const query = sdJwtQuery();
    (query.credentials[0] as Record<string, unknown>).format = 'jwt_vc_json';
    expect(paths(query)).toEqual(['/dcql/credentials/0/format']);
  });

  it('requires meta.vct_values for dc+sd-jwt and meta.doctype_value for mso_mdoc', () => {
    const sd = sdJwtQuery();
    delete (sd.credentials[0] as Record<string, unknown>).meta;
    expect(paths(sd)).toEqual(['/dcql/credentials/0/meta/vct_values']);
    const md = mdocQuery();
    md.credentials[0]!.meta = {} as never;
    expect(paths(md)).toEqual(['/dcql/credentials/0/meta/doctype_value']);
  });

  it('refuses mdoc claim paths that are not [namespace, element]', () => {
    const md = mdocQuery();
    md.credentials[0]!.claims = [
      { path: ['family_name'] },
      { path: ['org.iso.18013.5.1', 'given_name'] },
      { path: ['a', 'b', 'c'] },
    ] as never;
    expect(paths(md)).toEqual(['/dcql/credentials/0/claims/0/path', '/dcql/credentials/0/claims/2/path']);
  });

  it('refuses credential_sets naming unknown ids and duplicate ids', () => {
    const query = bothQuery();
    query.credential_sets = [{ options: [['pid'], ['nope']], required: true }];
    expect(paths(query)).toEqual(['/dcql/credential_sets/0/options/1/0']);
    const duplicate = { combine: 'all', credentials: [sdJwtQuery().credentials[0], sdJwtQuery().credentials[0]] };
    expect(paths(duplicate)).toEqual(['/dcql/credentials/1/id']);
  });

  it('reports several problems at once, each with a message naming its path', () => {
    const problems = validateDcqlQuery({
      query: { credentials: [{ id: 'x', format: 'mso_mdoc' }] },
      pointer: '/templateJson/dcql/query',
    });
    expect(problems.map((p) => p.path)).toEqual([
      '/templateJson/dcql/query/combine',
      '/templateJson/dcql/query/credentials/0/meta/doctype_value',
    ]);
    expect(problems[0]!.message).toContain('/templateJson/dcql/query/combine');
  });

  it("passes the library's own checks through with their paths", () => {
    const query = sdJwtQuery();
    (query.credentials[0] as Record<string, unknown>).claims = [{ path: [] }];
    expect(paths(query).some((path) => path.startsWith('/dcql/credentials/0/claims'))).toBe(true);
    const claimSets = sdJwtQuery();
    (claimSets.credentials[0] as Record<string, unknown>).claim_sets = [['unknown']];
    expect(paths(claimSets).length).toBeGreaterThan(0);
  });

  it('refuses a non-object and an empty credentials list', () => {
    expect(paths('nope')).toEqual(['/dcql']);
    expect(paths({ combine: 'all', credentials: [] })).toEqual(['/dcql/credentials']);
  });

  it('drops combine from the query sent to wallets', () => {
    expect(walletDcqlQuery(sdJwtQuery())).toEqual({ credentials: sdJwtQuery().credentials });
  });
});
