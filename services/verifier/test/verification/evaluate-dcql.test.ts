import { beforeAll, describe, expect, it } from 'vitest';
import { createPki, VCT, type Pki } from './support/fixtures.js';
import { createCa, createLeaf, x509 } from './support/pki.js';
import { issuePid, PID_QUERY, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
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
  licence = await presentPid(
    await issuePid(pki, holder, { vct: LICENCE, disclosable: { categories: ['B', 'AM'], given_name: 'Erika' } }),
    holder,
  );
});

const sdJwt = (id: string, vct: string, extra: Record<string, unknown> = {}) => ({
  id,
  format: 'dc+sd-jwt',
  meta: { vct_values: [vct] },
  ...extra,
});

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
      credentials: [
        sdJwt('pid', VCT, {
          claims: [
            { id: 'family', path: ['family_name'] },
            { id: 'given', path: ['given_name'] },
            { id: 'adult', path: ['age_over_18'] },
          ],
          claim_sets: [
            ['family', 'adult'],
            ['given', 'adult'],
          ],
        }),
      ],
    };
    const partial = await presentPid(
      await issuePid(pki, holder),
      holder,
      {},
      { reveal: ['given_name', 'age_over_18'] },
    );
    expect((await verify(pki, { dcqlQuery: query, vpToken: { pid: [partial] } })).ok).toBe(true);
    const tooLittle = await presentPid(await issuePid(pki, holder), holder, {}, { reveal: ['given_name'] });
    expect(await verify(pki, { dcqlQuery: query, vpToken: { pid: [tooLittle] } })).toMatchObject({
      ok: false,
      code: 'DCQL_NOT_SATISFIED',
    });
  });

  it('matches values, including inside arrays', async () => {
    const query = (value: string) => ({
      combine: 'all',
      credentials: [sdJwt('licence', LICENCE, { claims: [{ path: ['categories', null], values: [value] }] })],
    });
    expect((await verify(pki, { dcqlQuery: query('B'), vpToken: { licence: [licence] } })).ok).toBe(true);
    const result = await verify(pki, { dcqlQuery: query('C'), vpToken: { licence: [licence] } });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('"licence"');
  });

  it('names an unmatched claim by its path, never by the value the credential holds (it is logged and kept)', async () => {
    const query = {
      combine: 'all',
      credentials: [
        sdJwt('licence', LICENCE, {
          claims: [
            { path: ['categories', null], values: ['C'] },
            { path: ['given_name'], values: ['Jane'] },
          ],
        }),
      ],
    };
    const result = await verify(pki, { dcqlQuery: query, vpToken: { licence: [licence] } });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    const { message } = result as { message: string };
    expect(message).toBe(
      'Credential query "licence" is not satisfied: claims ["categories",null], ["given_name"] missing or without a requested value.',
    );
    for (const held of ['Erika', "'B'", "'AM'"]) expect(message).not.toContain(held);
  });

  it('accepts several presentations for a query with multiple, and refuses them otherwise (INVALID_VP_TOKEN)', async () => {
    const second = await presentPid(
      await issuePid(pki, holder, { disclosable: { given_name: 'Max', age_over_18: true } }),
      holder,
    );
    const multiple = { combine: 'all', credentials: [sdJwt('pid', VCT, { multiple: true })] };
    const result = await verify(pki, { dcqlQuery: multiple, vpToken: { pid: [pid, second] } });
    expect(result.ok && result.presentations.map((presentation) => presentation.claims.given_name)).toEqual([
      'Erika',
      'Max',
    ]);
    const single = await verify(pki, { vpToken: { pid: [pid, second] } });
    expect(single).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
  });

  it('refuses a second presentation that does not match, even when the first does (DCQL_NOT_SATISFIED)', async () => {
    const multiple = { combine: 'all', credentials: [sdJwt('pid', VCT, { multiple: true })] };
    expect(await verify(pki, { dcqlQuery: multiple, vpToken: { pid: [pid, licence] } })).toMatchObject({
      ok: false,
      code: 'DCQL_NOT_SATISFIED',
    });
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
    expect(
      await verify(pki, { dcqlQuery: { combine: 'all', credentials: [] }, vpToken: { pid: [pid] } }),
    ).toMatchObject({ ok: false, code: 'INVALID_VP_TOKEN' });
  });
});

describe('DCQL trusted_authorities of type aki', () => {
  // A PKI whose certificates carry key identifiers: root SKI a1…, intermediate SKI b2… (AKI a1…), issuer leaf AKI b2….
  const ROOT_KEY_ID = 'a1'.repeat(20);
  const INTERMEDIATE_KEY_ID = 'b2'.repeat(20);
  const b64url = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
  let identified: Pki;
  let presented: string;

  beforeAll(async () => {
    const root = await createCa('CN=Keyed Root,O=Tessera Tests,C=DE', undefined, {
      extraExtensions: [new x509.SubjectKeyIdentifierExtension(ROOT_KEY_ID)],
    });
    const intermediate = await createCa('CN=Keyed Intermediate,O=Tessera Tests,C=DE', root, {
      pathLength: 0,
      extraExtensions: [
        new x509.SubjectKeyIdentifierExtension(INTERMEDIATE_KEY_ID),
        new x509.AuthorityKeyIdentifierExtension(ROOT_KEY_ID),
      ],
    });
    const issuer = await createLeaf('CN=Keyed PID Issuer,O=Tessera Tests,C=DE', intermediate, {
      extraExtensions: [
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'issuer.example' }]),
        new x509.AuthorityKeyIdentifierExtension(INTERMEDIATE_KEY_ID),
      ],
    });
    identified = { ...pki, root, intermediate, issuer };
    presented = await presentPid(await issuePid(identified, holder), holder);
  });

  const withAuthorities = (values: string[]) => ({
    ...PID_QUERY,
    credentials: [{ ...PID_QUERY.credentials[0]!, trusted_authorities: [{ type: 'aki', values }] }],
  });

  it("matches the AKI of a certificate in the issuer's chain (the leaf's issuing CA)", async () => {
    const result = await verify(identified, {
      dcqlQuery: withAuthorities([b64url(INTERMEDIATE_KEY_ID)]),
      vpToken: { pid: [presented] },
    });
    expect(result).toMatchObject({ ok: true });
  });

  it('matches the SKI of a CA in the path, the anchor included', async () => {
    const result = await verify(identified, {
      dcqlQuery: withAuthorities(['bm90LXRoaXMta2V5', b64url(ROOT_KEY_ID)]),
      vpToken: { pid: [presented] },
    });
    expect(result).toMatchObject({ ok: true });
  });

  it('refuses a credential whose chain carries none of the values (DCQL_NOT_SATISFIED)', async () => {
    const result = await verify(identified, {
      dcqlQuery: withAuthorities([b64url('c3'.repeat(20))]),
      vpToken: { pid: [presented] },
    });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
    expect((result as { message: string }).message).toContain('trusted_authorities');
  });

  it('refuses a credential whose certificates carry no key identifiers at all', async () => {
    const result = await verify(pki, {
      dcqlQuery: withAuthorities([b64url(INTERMEDIATE_KEY_ID)]),
      vpToken: { pid: [pid] },
    });
    expect(result).toMatchObject({ ok: false, code: 'DCQL_NOT_SATISFIED' });
  });
});
