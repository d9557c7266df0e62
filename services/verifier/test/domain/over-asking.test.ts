import { describe, expect, it } from 'vitest';
import { evaluateOverAsking } from '../../src/domain/over-asking.js';
import type { RegisteredIntendedUse } from '../../src/domain/registered-intended-use.js';
import { buildVerifierInfo } from '../../src/domain/verifier-info.js';
import { validateDcqlQuery } from '../../src/domain/dcql.js';

const PID = 'urn:eudi:pid:1';
const MDOC_PID = 'eu.europa.ec.eudi.pid.1';

const ageCheck: RegisteredIntendedUse = {
  id: 'age-check',
  purpose: [{ lang: 'en', value: 'age check' }],
  credentials: [
    { format: 'dc+sd-jwt', vct: PID, claims: [['age_equal_or_over', '18'], ['address']] },
    { format: 'mso_mdoc', doctype: MDOC_PID, claims: [[MDOC_PID, 'age_over_18']] },
  ],
};

function query(credentials: Array<Record<string, unknown>>): Record<string, unknown> {
  const dcql = { combine: 'all', credentials };
  // The queries below are valid DCQL: the evaluation assumes what validateDcqlQuery accepts.
  expect(validateDcqlQuery({ query: dcql, pointer: '' })).toEqual([]);
  return dcql;
}

const sdJwt = (id: string, claims: unknown[][] | undefined, vcts = [PID]) => ({
  id,
  format: 'dc+sd-jwt',
  meta: { vct_values: vcts },
  ...(claims ? { claims: claims.map((path) => ({ path })) } : {}),
});
const mdoc = (id: string, claims: string[][], doctype = MDOC_PID) => ({
  id,
  format: 'mso_mdoc',
  meta: { doctype_value: doctype },
  claims: claims.map((path) => ({ path })),
});

describe('a query within the registered intended use', () => {
  it('has nothing outside, and the use covers every credential query', () => {
    const result = evaluateOverAsking({
      dcqlQuery: query([
        sdJwt('pid', [
          ['age_equal_or_over', '18'],
          ['address', 'postal_code'],
        ]),
        mdoc('mdl', [[MDOC_PID, 'age_over_18']]),
        sdJwt('pid_no_claims', undefined),
      ]),
      intendedUses: [ageCheck],
      pointer: '/dcql',
    });
    expect(result).toEqual({ outside: [], coveredCredentialIds: [['pid', 'mdl', 'pid_no_claims']] });
  });
});

describe('a query asking for more', () => {
  it('lists each claim and credential type outside the registration, one entry per path, with its pointer', () => {
    const result = evaluateOverAsking({
      dcqlQuery: query([
        sdJwt('pid', [['age_equal_or_over', '18'], ['given_name'], ['birthdate']], [PID, 'urn:other:pid']),
        mdoc('mdl', [[MDOC_PID, 'family_name']]),
        mdoc('drivers', [['org.iso.18013.5.1', 'given_name']], 'org.iso.18013.5.1.mDL'),
      ]),
      intendedUses: [ageCheck],
      pointer: '/templateJson/dcql/query',
    });
    expect(result.outside.map(({ path, credentialQueryId, kind }) => ({ path, credentialQueryId, kind }))).toEqual([
      {
        path: '/templateJson/dcql/query/credentials/0/meta/vct_values/1',
        credentialQueryId: 'pid',
        kind: 'credential_type',
      },
      { path: '/templateJson/dcql/query/credentials/0/claims/1/path', credentialQueryId: 'pid', kind: 'claim' },
      { path: '/templateJson/dcql/query/credentials/0/claims/2/path', credentialQueryId: 'pid', kind: 'claim' },
      { path: '/templateJson/dcql/query/credentials/1/claims/0/path', credentialQueryId: 'mdl', kind: 'claim' },
      // An unregistered type: its claims are not listed again.
      {
        path: '/templateJson/dcql/query/credentials/2/meta/doctype_value',
        credentialQueryId: 'drivers',
        kind: 'credential_type',
      },
    ]);
    expect(result.outside[1]!.message).toBe(
      '/templateJson/dcql/query/credentials/0/claims/1/path: credential query "pid" asks for claim ["given_name"], which the registered intended use does not list for its credential type',
    );
    expect(result.coveredCredentialIds).toEqual([[]]);
  });

  it('refuses a format the registration does not name for that type', () => {
    const result = evaluateOverAsking({
      dcqlQuery: query([mdoc('as_mdoc', [[PID, 'x']], PID)]),
      intendedUses: [{ purpose: [], credentials: [{ format: 'dc+sd-jwt', vct: PID, claims: 'all' }] }],
    });
    expect(result.outside.map((entry) => entry.path)).toEqual(['/credentials/0/meta/doctype_value']);
  });

  it('with no intended use at all, every credential type is outside', () => {
    const result = evaluateOverAsking({ dcqlQuery: query([sdJwt('pid', [['given_name']])]), intendedUses: [] });
    expect(result.outside.map((entry) => entry.path)).toEqual(['/credentials/0/meta/vct_values/0']);
    expect(result.coveredCredentialIds).toEqual([]);
  });
});

describe('claims paths', () => {
  const use = (claims: RegisteredIntendedUse['credentials'][number]['claims']): RegisteredIntendedUse => ({
    purpose: [],
    credentials: [{ format: 'dc+sd-jwt', vct: PID, claims }],
  });
  const outsideOf = (claims: RegisteredIntendedUse['credentials'][number]['claims'], requested: unknown[]) =>
    evaluateOverAsking({ dcqlQuery: query([sdJwt('q', [requested])]), intendedUses: [use(claims)] }).outside.length;

  it.each([
    ['a registered parent covers a child', [['address']], ['address', 'street_address'], 0],
    ['a registered child does not cover its parent', [['address', 'street_address']], ['address'], 1],
    ['a registered wildcard covers an index', [['nationalities', null]], ['nationalities', 0], 0],
    ['a registered index does not cover every element', [['nationalities', 0]], ['nationalities', null], 1],
    ['a registered wildcard covers every element', [['nationalities', null]], ['nationalities', null], 0],
    [
      'a leading wildcard (V1.1.1 mdoc element) matches any namespace',
      [[null, 'age_over_18']],
      ['ns', 'age_over_18'],
      0,
    ],
    ['"all" covers anything', 'all' as const, ['anything', 'at', 'all'], 0],
    ['no registered claim covers nothing', [], ['given_name'], 1],
  ])('%s', (_name, registered, requested, expected) => {
    expect(outsideOf(registered as never, requested)).toBe(expected);
  });
});

describe('several intended uses', () => {
  const identity: RegisteredIntendedUse = {
    id: 'identity',
    purpose: [],
    credentials: [{ format: 'dc+sd-jwt', vct: PID, claims: [['given_name'], ['family_name']] }],
  };

  it('each names the queries it covers entirely: verifier_info credential_ids', () => {
    const dcqlQuery = query([sdJwt('age', [['age_equal_or_over', '18']]), sdJwt('name', [['given_name']])]);
    const result = evaluateOverAsking({ dcqlQuery, intendedUses: [ageCheck, identity] });
    expect(result).toEqual({ outside: [], coveredCredentialIds: [['age'], ['name']] });
  });

  it('a query split across two uses is over-asking, judged against the closest use', () => {
    const result = evaluateOverAsking({
      dcqlQuery: query([sdJwt('both', [['age_equal_or_over', '18'], ['given_name'], ['family_name']])]),
      intendedUses: [ageCheck, identity],
    });
    // identity leaves one claim out, ageCheck two: the paths are identity's.
    expect(result.outside.map((entry) => entry.path)).toEqual(['/credentials/0/claims/0/path']);
    expect(result.coveredCredentialIds).toEqual([[], []]);
  });
});

describe('verifier_info', () => {
  it('is absent without a registration certificate', () => {
    expect(buildVerifierInfo([])).toBeUndefined();
  });

  it('is an array of registration_cert objects naming the covered credential queries', () => {
    expect(buildVerifierInfo([{ registrationCertificate: 'eyJ.a.b', credentialIds: ['pid', 'mdl', 'pid'] }])).toEqual([
      { format: 'registration_cert', data: 'eyJ.a.b', credential_ids: ['pid', 'mdl'] },
    ]);
  });

  it('leaves credential_ids out when the certificate covers no query (never an empty array)', () => {
    expect(buildVerifierInfo([{ registrationCertificate: 'eyJ.a.b', credentialIds: [] }])).toEqual([
      { format: 'registration_cert', data: 'eyJ.a.b' },
    ]);
  });
});
