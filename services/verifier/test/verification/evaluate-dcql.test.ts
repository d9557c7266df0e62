import { beforeAll, describe, expect, it } from 'vitest';
import { createPki, VCT, type Pki } from './support/fixtures.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { generateEs256 } from './support/sd-jwt.js';

const LICENCE = 'https://credentials.example/driving-licence';
const PASSPORT = 'https://credentials.example/passport';

let pki: Pki;
let holder: Holder;
let pid: string;
let licence: string;

beforeAll(async () => {
  pki = await createPki();
  holder = await generateEs256();
  pid = await presentPid(await issuePid(pki, holder), holder);
  licence = await presentPid(await issuePid(pki, holder, { vct: LICENCE, disclosable: { categories: ['B', 'AM'], given_name: 'Erika' } }), holder);
});

const sdJwt = (id: string, vct: string, extra: Record<string, unknown> = {}) => ({ id, format: 'dc+sd-jwt', meta: { vct_values: [vct] }, ...extra });

describe('DCQL evaluation over verified presentations', () => {
  it('satisfies a credential set by its second option and reports it', async () => {
    const query = {
      combine: 'all',
      credentials: [sdJwt('passport', PASSPORT), sdJwt('licence', LICENCE), sdJwt('pid', VCT)],
      credential_sets: [{ options: [['passport'], ['licence']] }, { options: [['pid']], required: false }],
    };
    const result = await verify(pki, { dcqlQuery: query, vpToken: { licence: [licence] } });
    expect(result).toMatchObject({
      ok: true,
      credentialSets: [
        { options: [['passport'], ['licence']], required: true, satisfiedOption: 1 },
        { options: [['pid']], required: false },
      ],
    });
    if (result.ok) expect(result.credentialSets![1]).not.toHaveProperty('satisfiedOption');
  });

  it('names an unmet required credential set (DCQL_NOT_SATISFIED)', async () => {
    const query = {
      combine: 'all',
      credentials: [sdJwt('passport', PASSPORT), sdJwt('licence', LICENCE), sdJwt('pid', VCT)],
      credential_sets: [{ options: [['pid']] }, { options: [['passport'], ['licence']] }],
    };
    const result = await verify(pki, { dcqlQuery: query, vpToken: { pid: [pid] } });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('[passport] or [licence]');
  });

  it('requires every credential query when there are no credential sets (DCQL_NOT_SATISFIED)', async () => {
    const query = { combine: 'all', credentials: [sdJwt('pid', VCT), sdJwt('licence', LICENCE)] };
    const result = await verify(pki, { dcqlQuery: query, vpToken: { pid: [pid] } });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('"licence" was not presented');
  });

  it('accepts the second claim set when the first is not disclosed', async () => {
    const query = {
      combine: 'all',
      credentials: [sdJwt('pid', VCT, { claims: [{ id: 'family', path: ['family_name'] }, { id: 'given', path: ['given_name'] }, { id: 'adult', path: ['age_over_18'] }], claim_sets: [['family', 'adult'], ['given', 'adult']] })],
    };
    const partial = await presentPid(await issuePid(pki, holder), holder, {}, { reveal: ['given_name', 'age_over_18'] });
    expect((await verify(pki, { dcqlQuery: query, vpToken: { pid: [partial] } })).ok).toBe(true);
    const tooLittle = await presentPid(await issuePid(pki, holder), holder, {}, { reveal: ['given_name'] });
    expect(await verify(pki, { dcqlQuery: query, vpToken: { pid: [tooLittle] } })).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
  });

  it('matches values, including inside arrays', async () => {
    const query = (value: string) => ({ combine: 'all', credentials: [sdJwt('licence', LICENCE, { claims: [{ path: ['categories', null], values: [value] }] })] });
    expect((await verify(pki, { dcqlQuery: query('B'), vpToken: { licence: [licence] } })).ok).toBe(true);
    const result = await verify(pki, { dcqlQuery: query('C'), vpToken: { licence: [licence] } });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('"licence"');
  });

  it('accepts several presentations for a query with multiple, and refuses them otherwise (INVALID_VP_TOKEN)', async () => {
    const second = await presentPid(await issuePid(pki, holder, { disclosable: { given_name: 'Max', age_over_18: true } }), holder);
    const multiple = { combine: 'all', credentials: [sdJwt('pid', VCT, { multiple: true })] };
    const result = await verify(pki, { dcqlQuery: multiple, vpToken: { pid: [pid, second] } });
    expect(result.ok && result.presentations.map((presentation) => presentation.claims.given_name)).toEqual(['Erika', 'Max']);
    const single = await verify(pki, { vpToken: { pid: [pid, second] } });
    expect(single).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
  });

  it('refuses a second presentation that does not match, even when the first does (DCQL_NOT_SATISFIED)', async () => {
    const multiple = { combine: 'all', credentials: [sdJwt('pid', VCT, { multiple: true })] };
    expect(await verify(pki, { dcqlQuery: multiple, vpToken: { pid: [pid, licence] } })).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
  });
});

describe('vp_token shape', () => {
  it.each([
    ['an unknown credential query id', () => ({ passport: [pid] })],
    ['an empty array', () => ({ pid: [] })],
    ['a bare string', () => ({ pid: pid })],
    ['a non-string presentation', () => ({ pid: [{ credential: pid }] })],
    ['an array instead of an object', () => [pid]],
    ['an empty object', () => ({})],
    ['a string that is not JSON', () => 'pid'],
  ])('refuses %s (INVALID_VP_TOKEN)', async (_name, token) => {
    expect(await verify(pki, { vpToken: token() })).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
  });

  it('refuses everything when the stored query cannot be used', async () => {
    expect(await verify(pki, { dcqlQuery: { combine: 'all', credentials: [] }, vpToken: { pid: [pid] } })).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
  });
});
