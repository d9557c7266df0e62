import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { readTrustListContent } from '../../src/db/trust-list-content.js';
import { makeCa, makeLeaf } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity } from '../support/trust-registry.js';
import { ORG } from '../support/world.js';

describe('readTrustListContent', () => {
  test('an unknown ecosystem has no content', async ({ harness: h }) => {
    expect(await readTrustListContent(h.database.db, randomUUID())).toBeUndefined();
  });

  test('a new ecosystem: sequence 0 since its creation, the lead as operator, organisation policy, not public, no entities', async ({
    harness: h,
    world,
  }) => {
    const content = await readTrustListContent(h.database.db, world.ecosystemId);
    expect(content).toMatchObject({
      ecosystem: { id: world.ecosystemId, name: 'Health Data Space' },
      lead: { orgId: ORG.lead, name: 'lead organisation' },
      sequence: 0,
      public: false,
      policy: 'organisation',
      entities: [],
    });
    expect(content!.sequenceChangedAt).toBeInstanceOf(Date);
  });

  test('entities in creation order, current certificates only, status times and earlier statuses newest first, as of one sequence', async ({
    harness: h,
    world,
  }) => {
    const ca = await makeCa('Content CA');
    const leaf = await makeLeaf(ca, 'Content signer');
    const first = await registerEntity(
      h,
      world,
      issuerBody([ca.pem, leaf.pem], { name: 'First', orgId: ORG.member, informationUri: 'https://first.example.org' }),
    );
    const second = await registerEntity(h, world, {
      name: 'Second',
      role: 'verifier',
      certificates: [{ pem: (await makeCa('Verifier CA')).pem }],
    });
    const leafId = first.certificates.find((c) => c.fingerprint === leaf.fingerprint)!.id;
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${first.id}/certificates/${leafId}`), { token: world.tokens.lead }),
      200,
    );
    const status = (s: string) =>
      h.call('POST', entitiesPath(world, `/${first.id}/status`), {
        token: world.tokens.lead,
        body: { status: s, reason: 'content test' },
      });
    const suspended = await status('suspended');
    const reactivated = await status('active');
    expectStatus(reactivated, 200);

    const content = (await readTrustListContent(h.database.db, world.ecosystemId))!;
    expect(content.sequence).toBe(5);
    expect(content.sequenceChangedAt.toISOString()).toBe(reactivated.body.data.statusChangedAt);
    expect(content.entities.map((e) => e.id)).toEqual([first.id, second.id]);
    const [a, b] = content.entities as [(typeof content.entities)[0], (typeof content.entities)[0]];
    expect(a).toMatchObject({
      name: 'First',
      role: 'issuer',
      orgId: ORG.member,
      status: 'active',
      informationUri: 'https://first.example.org',
      allowedCredentialTypes: first.allowedCredentialTypes,
    });
    expect(a.certificates).toEqual([
      {
        id: first.certificates.find((c) => c.fingerprint === ca.fingerprint)!.id,
        fingerprint: ca.fingerprint,
        kind: 'ca',
        ski: ca.ski,
        aki: null,
        notBefore: expect.any(String),
        notAfter: ca.certificate.notAfter.toISOString(),
        pem: expect.stringContaining('BEGIN CERTIFICATE'),
        subject: 'CN=Content CA, O=Tessera Tests',
      },
    ]);
    expect(a.statusStartingTime.toISOString()).toBe(reactivated.body.data.statusChangedAt);
    expect(a.statusHistory.map((p) => [p.status, p.startingTime.toISOString()])).toEqual([
      ['suspended', suspended.body.data.statusChangedAt],
      ['active', first.statusChangedAt],
    ]);
    expect(b).toMatchObject({
      name: 'Second',
      role: 'verifier',
      orgId: null,
      allowedCredentialTypes: [],
      statusHistory: [],
    });
    expect(b.statusStartingTime.toISOString()).toBe(second.statusChangedAt);
  });
});
