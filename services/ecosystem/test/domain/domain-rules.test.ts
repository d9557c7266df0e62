import { describe, expect, it } from 'vitest';
import { type AppError, isUuid } from '@tessera/service-kit';
import { resolveInvitationPerspective } from '../../src/domain/invitation-perspective.js';
import { normaliseName } from '../../src/domain/names.js';
import { toNoticeJsonLd } from '../../src/domain/notice-json-ld.js';
import { deriveStanding, requireRelation } from '../../src/domain/relation.js';
import { pickTemplate } from '../../src/domain/resolve-template.js';

const ECO = '6f1c1c2e-3b7a-4c55-9a43-0e6a2b1d9f10';

describe('deriveStanding', () => {
  it('ranks lead over member over invited over outsider', () => {
    expect(deriveStanding({ memberships: [], invitations: [] })).toEqual({ relation: 'outsider', orgIds: [] });
    expect(deriveStanding({ memberships: [], invitations: [{ orgId: 'a', status: 'rejected' }] }).relation).toBe(
      'invited',
    );
    expect(
      deriveStanding({
        memberships: [{ orgId: 'a', role: 'Ecosystem Member', status: 'ACTIVE' }],
        invitations: [{ orgId: 'a', status: 'accepted' }],
      }),
    ).toEqual({ relation: 'member', orgIds: ['a'] });
    expect(
      deriveStanding({
        memberships: [
          { orgId: 'a', role: 'Ecosystem Member', status: 'ACTIVE' },
          { orgId: 'b', role: 'Ecosystem Lead', status: 'ACTIVE' },
        ],
        invitations: [],
      }),
    ).toEqual({ relation: 'lead', orgIds: ['b'] });
  });

  it('does not count an INACTIVE membership as membership', () => {
    expect(
      deriveStanding({
        memberships: [{ orgId: 'a', role: 'Ecosystem Member', status: 'INACTIVE' }],
        invitations: [{ orgId: 'a', status: 'accepted' }],
      }).relation,
    ).toBe('invited');
  });
});

describe('requireRelation', () => {
  const attempt = (relation: 'lead' | 'member' | 'invited' | 'outsider') => {
    try {
      requireRelation({
        standing: { relation, orgIds: [] },
        allowed: ['lead'],
        notFoundCode: 'X_NOT_FOUND',
        notFoundMessage: 'No X.',
      });
      return 'allowed';
    } catch (error) {
      return `${(error as AppError).statusCode} ${(error as AppError).code}`;
    }
  };
  it('hides the ecosystem from outsiders (404) and refuses others (403)', () => {
    expect(attempt('lead')).toBe('allowed');
    expect(attempt('member')).toBe('403 FORBIDDEN');
    expect(attempt('invited')).toBe('403 FORBIDDEN');
    expect(attempt('outsider')).toBe('404 X_NOT_FOUND');
  });
});

describe('pickTemplate', () => {
  const mappings = [
    { templateId: 'global-v', role: 'verifier' as const, orgId: null },
    { templateId: 'org-a-v', role: 'verifier' as const, orgId: 'a' },
    { templateId: 'global-i', role: 'issuer' as const, orgId: null },
  ];
  it('prefers the organisation override, then the ecosystem-wide mapping of the role', () => {
    expect(pickTemplate(mappings, 'a', 'verifier')).toEqual({ templateId: 'org-a-v', scope: 'organisation' });
    expect(pickTemplate(mappings, 'b', 'verifier')).toEqual({ templateId: 'global-v', scope: 'ecosystem' });
    expect(pickTemplate(mappings.slice(1, 2), 'b', 'verifier')).toBeUndefined();
    expect(pickTemplate(mappings, 'a', 'issuer')).toEqual({ templateId: 'global-i', scope: 'ecosystem' });
  });
});

describe('resolveInvitationPerspective', () => {
  it('reads received and sent perspectives, including the spec example form', () => {
    expect(resolveInvitationPerspective({ role: 'Ecosystem Member', orgId: 'org-a' })).toEqual({
      kind: 'received',
      orgId: 'org-a',
    });
    expect(resolveInvitationPerspective({ role: 'Ecosystem Lead', ecosystemId: ECO })).toEqual({
      kind: 'sent',
      ecosystemId: ECO,
    });
    expect(resolveInvitationPerspective({ role: 'Ecosystem Lead', orgId: ECO })).toEqual({
      kind: 'sent',
      ecosystemId: ECO,
    });
    expect(resolveInvitationPerspective({ ecosystemId: ECO })).toEqual({ kind: 'sent', ecosystemId: ECO });
    expect(resolveInvitationPerspective({ orgId: 'org-a' })).toEqual({ kind: 'received', orgId: 'org-a' });
  });
  it('refuses what it cannot read with 400', () => {
    for (const query of [
      {},
      { role: 'Ecosystem Lead' as const },
      { role: 'Ecosystem Lead' as const, orgId: 'org-a' },
      { role: 'Ecosystem Member' as const, ecosystemId: ECO },
    ]) {
      expect(() => resolveInvitationPerspective(query)).toThrow(expect.objectContaining({ statusCode: 400 }));
    }
  });
});

describe('normaliseName and isUuid', () => {
  it('trims and collapses spaces, then checks the length', () => {
    expect(normaliseName({ value: '  Health   Data ', path: '/name', min: 2, max: 50 })).toBe('Health Data');
    expect(() => normaliseName({ value: '   a  ', path: '/name', min: 2, max: 50 })).toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
  });
  it('accepts canonical UUIDs only', () => {
    expect(isUuid(ECO)).toBe(true);
    expect(isUuid(ECO.toUpperCase())).toBe(true);
    expect(isUuid(`urn:uuid:${ECO}`)).toBe(false);
    expect(isUuid(ECO.replace(/-/g, ''))).toBe(false);
  });
});

describe('toNoticeJsonLd', () => {
  it('maps the notice to DPV terms with a per-version @id', () => {
    const document = toNoticeJsonLd({
      id: ECO,
      intentId: ECO,
      version: 2,
      createdBy: 'u',
      createDateTime: '2026-01-01T00:00:00.000Z',
      title: 'T',
      controller: { name: 'C', contact: 'c@example.org', url: 'https://c.example' },
      purposes: [{ id: 'dpv:ServiceProvision', description: 'd' }],
      personalDataCategories: ['pd:Age'],
      processingOperations: ['dpv:Collect'],
      legalBasis: 'dpv:Consent',
      retention: { duration: 'P30D' },
    });
    expect(document).toMatchObject({
      '@id': `urn:uuid:${ECO}#v2`,
      '@type': 'dpv:ConsentNotice',
      'dct:language': 'en',
      'dpv:hasDataController': { '@id': 'https://c.example', 'dpv:hasName': 'C' },
      'dpv:hasLegalBasis': { '@id': 'dpv:Consent' },
    });
    expect(document).not.toHaveProperty('dpv:hasLocation');
  });
});
