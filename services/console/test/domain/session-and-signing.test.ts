import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { validityOf } from '../../src/domain/certificate-validity.js';
import { safeReturnPath, tokensNeedRenewal } from '../../src/domain/console-session.js';
import { summariseSignedTrustList } from '../../src/domain/signed-trust-list.js';
import { can, userOfAccessToken } from '../../src/domain/signed-in-user.js';

describe('who an access token names (Keycloak layout)', () => {
  it('reads the platform roles per organisation and platform administration; other clients’ roles are not organisations', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({
      email: 'alice@example.com',
      realm_access: { roles: ['offline_access', 'platform_admin'] },
      resource_access: { 'org-1': { roles: ['owner', 'uma_protection'] }, account: { roles: ['manage-account'] } },
    })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('alice')
      .sign(privateKey);
    expect(userOfAccessToken(token, { name: 'Alice A' })).toEqual({
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice A',
      platformAdmin: true,
      orgRoles: { 'org-1': ['owner'] },
    });
  });

  it('decides what the console offers a role (the services decide what is allowed)', () => {
    expect(can.manageVerification(['member'])).toBe(false);
    expect(can.manageVerification(['verifier'])).toBe(true);
    expect(can.auditReads(['verifier'])).toBe(false);
    expect(can.auditReads(['admin'])).toBe(true);
    expect(can.own(['admin'])).toBe(false);
  });
});

describe('sessions', () => {
  it('renews an access token 30 s before it expires', () => {
    expect(tokensNeedRenewal({ accessToken: 't', expiresAt: 100_000 }, 69_000)).toBe(false);
    expect(tokensNeedRenewal({ accessToken: 't', expiresAt: 100_000 }, 71_000)).toBe(true);
  });

  it('returns only to its own pages after sign-in (no open redirect)', () => {
    expect(safeReturnPath('/orgs/org-1/sessions?state=Error')).toBe('/orgs/org-1/sessions?state=Error');
    for (const hostile of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/ok\nSet-Cookie: x',
      undefined,
      42,
    ])
      expect(safeReturnPath(hostile)).toBe('/');
  });
});

describe('certificates and trust lists', () => {
  const now = new Date('2026-06-01T00:00:00.000Z');
  it('warns a month before a certificate expires', () => {
    expect(validityOf('2027-01-01T00:00:00.000Z', now)).toBe('valid');
    expect(validityOf('2026-06-20T00:00:00.000Z', now)).toBe('expires-soon');
    expect(validityOf('2026-05-01T00:00:00.000Z', now)).toBe('expired');
    expect(validityOf('2027-01-01T00:00:00.000Z', now, '2026-07-01T00:00:00.000Z')).toBe('not-yet-valid');
    expect(validityOf(undefined, now)).toBe('valid');
  });

  it('reads the signed list’s sequence and next update, and whether it is public', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const jws = await new SignJWT({
      LoTE: {
        ListAndSchemeInformation: {
          LoTESequenceNumber: 7,
          ListIssueDateTime: '2026-06-01T00:00:00Z',
          NextUpdate: '2026-06-02T00:00:00Z',
        },
        TrustedEntitiesList: [{}, {}],
      },
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'trustlist+jwt' })
      .sign(privateKey);
    expect(summariseSignedTrustList(jws)).toEqual({
      sequence: 7,
      issuedAt: '2026-06-01T00:00:00Z',
      nextUpdate: '2026-06-02T00:00:00Z',
      entities: 2,
    });
    expect(summariseSignedTrustList('garbage')).toBeUndefined();
  });
});
