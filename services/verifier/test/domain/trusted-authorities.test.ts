import { describe, expect, it } from 'vitest';
import type { TrustListEntity } from '@tessera/contracts';
import { addTrustedAuthorities } from '../../src/domain/trusted-authorities.js';
import { bothQuery, mdocQuery, sdJwtQuery } from '../support/dcql-queries.js';

// Which key identifiers a session following a trust list asks wallets for (OpenID4VP 1.0 §6.1.1 `aki`).
const NOW = new Date('2026-06-01T00:00:00Z');
const PID = 'https://example.eu/pid';
const MDL = 'org.iso.18013.5.1.mDL';
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');

let next = 0;
function certificate(
  kind: 'ca' | 'leaf',
  identifiers: { ski?: string | null; aki?: string | null },
  validity: { notBefore?: string; notAfter?: string } = {},
): TrustListEntity['certificates'][number] {
  next += 1;
  return {
    id: `c${next}`,
    fingerprint: next.toString(16).padStart(64, '0'),
    kind,
    ski: identifiers.ski ?? null,
    aki: identifiers.aki ?? null,
    notBefore: validity.notBefore ?? '2026-01-01T00:00:00Z',
    notAfter: validity.notAfter ?? '2027-01-01T00:00:00Z',
    pem: '',
  };
}

function issuer(
  certificates: TrustListEntity['certificates'],
  types: TrustListEntity['allowedCredentialTypes'] = [{ format: 'dc+sd-jwt', vct: PID }],
  extra: Partial<TrustListEntity> = {},
): TrustListEntity {
  return {
    id: `e${++next}`,
    name: 'Issuer',
    role: 'issuer',
    orgId: null,
    status: 'active',
    allowedCredentialTypes: types,
    certificates,
    ...extra,
  };
}

const authorities = (query: Record<string, unknown>) =>
  (query.credentials as Array<Record<string, unknown>>).map((credential) => credential.trusted_authorities);

describe('addTrustedAuthorities', () => {
  it('names a CA by its SKI and a leaf by its AKI, once each, for the issuers allowed the query’s type', () => {
    const entities = [
      issuer([certificate('ca', { ski: 'aa01', aki: 'ff00' }), certificate('leaf', { aki: 'bb02' })]),
      issuer([certificate('ca', { ski: 'aa01' })]),
      issuer([certificate('ca', { ski: 'cc03' })], [{ format: 'mso_mdoc', doctype: MDL }]),
    ];
    const result = addTrustedAuthorities({ query: { credentials: bothQuery().credentials }, entities, now: NOW });
    expect(result.ok && authorities(result.query)).toEqual([
      [{ type: 'aki', values: [b64('aa01'), b64('bb02')] }],
      [{ type: 'aki', values: [b64('cc03')] }],
    ]);
  });

  it('leaves out suspended, withdrawn and verifier entities, certificates not valid now, and leaves without an AKI', () => {
    const entities = [
      issuer([certificate('ca', { ski: 'dd01' })], undefined, { status: 'suspended' }),
      issuer([certificate('ca', { ski: 'dd02' })], undefined, { status: 'withdrawn' }),
      issuer([certificate('ca', { ski: 'dd03' })], [], { role: 'verifier' }),
      issuer([
        certificate('ca', { ski: 'dd04' }, { notAfter: '2026-05-01T00:00:00Z' }),
        certificate('leaf', { aki: null }),
        certificate('ca', { ski: 'dd05' }),
      ]),
    ];
    const result = addTrustedAuthorities({ query: { credentials: sdJwtQuery().credentials }, entities, now: NOW });
    expect(result.ok && authorities(result.query)).toEqual([[{ type: 'aki', values: [b64('dd05')] }]]);
  });

  it('compares formats too: an issuer allowed a vct does not qualify for an mdoc query of that name', () => {
    const query = mdocQuery();
    const entities = [issuer([certificate('ca', { ski: 'ee01' })], [{ format: 'dc+sd-jwt', vct: MDL }])];
    expect(addTrustedAuthorities({ query: { credentials: query.credentials }, entities, now: NOW })).toEqual({
      ok: false,
      credentialQueryIds: ['mdl'],
    });
  });

  it('keeps only the values a query’s own aki authorities also name, and fails the query when none is left', () => {
    const entities = [issuer([certificate('ca', { ski: 'f001' }), certificate('ca', { ski: 'f002' })])];
    const narrowed = {
      credentials: [
        { ...sdJwtQuery().credentials[0], trusted_authorities: [{ type: 'aki', values: [b64('f002'), b64('0bad')] }] },
      ],
    };
    const result = addTrustedAuthorities({ query: narrowed, entities, now: NOW });
    expect(result.ok && authorities(result.query)).toEqual([[{ type: 'aki', values: [b64('f002')] }]]);
    const elsewhere = {
      credentials: [{ ...sdJwtQuery().credentials[0], trusted_authorities: [{ type: 'aki', values: [b64('0bad')] }] }],
    };
    expect(addTrustedAuthorities({ query: elsewhere, entities, now: NOW })).toEqual({
      ok: false,
      credentialQueryIds: ['pid'],
    });
  });

  it('keeps the rest of the query as it was', () => {
    const query = { credentials: bothQuery().credentials, credential_sets: bothQuery().credential_sets };
    const entities = [
      issuer(
        [certificate('ca', { ski: 'a1' })],
        [
          { format: 'dc+sd-jwt', vct: PID },
          { format: 'mso_mdoc', doctype: MDL },
        ],
      ),
    ];
    const result = addTrustedAuthorities({ query, entities, now: NOW });
    expect(result.ok && result.query.credential_sets).toEqual(query.credential_sets);
    expect(
      result.ok &&
        (result.query.credentials as Array<Record<string, unknown>>).map(
          ({ trusted_authorities: _ta, ...rest }) => rest,
        ),
    ).toEqual(query.credentials);
  });
});
