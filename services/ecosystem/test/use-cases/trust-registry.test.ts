// The trust registry and the lists it is published as, through the use cases' deps: the
// file's database, the in-process bus the change events go out on, and a clock the test
// holds, so every time the registry records or publishes is the one the test set.
import { describe, expect } from 'vitest';
import type { TrustedEntityCreateBody } from '@tessera/contracts';
import { InProcessBus, pageWindow } from '@tessera/service-kit';
import { InProcessHub, manualClock, silentLogger, type ManualClock } from '@tessera/service-kit/testing';
import { loadCertificateAuthority } from '@tessera/service-kit/x509';
import { createTrustListSigner } from '../../src/crypto/trust-list-signer.js';
import type { EcosystemDb } from '../../src/db/types.js';
import { SignedTrustListCache } from '../../src/state/signed-trust-lists.js';
import { changeTrustedEntityStatus } from '../../src/use-cases/change-trusted-entity-status.js';
import { createTrustedEntity } from '../../src/use-cases/create-trusted-entity.js';
import { getSignedTrustList } from '../../src/use-cases/get-signed-trust-list.js';
import { getTrustListSnapshot } from '../../src/use-cases/get-trust-list-snapshot.js';
import { listTrustedEntityHistory } from '../../src/use-cases/list-trusted-entity-history.js';
import { makeCa, makeCertificate } from '../support/certificates.js';
import { testTrustListCa } from '../support/trust-list-ca.js';
import { issuerBody } from '../support/trust-registry.js';
import { formEcosystem, useCaseTest } from '../support/use-cases.js';

const VALIDITY_SECONDS = 3600;
const T0 = new Date('2030-03-01T09:00:00.000Z');
// Certificates are checked at the clock's time: they must be valid in 2030.
const certificateNotBefore = new Date('2029-01-01T00:00:00Z');

const test = useCaseTest.extend('bus', { scope: 'file' }, async ({}, { onCleanup }) => {
  const bus = new InProcessBus(new InProcessHub());
  onCleanup(() => bus.close());
  return bus;
});

function registryDeps(db: EcosystemDb, bus: InProcessBus, time: ManualClock) {
  return { db, bus, logger: silentLogger(), clock: time.clock };
}

/** An issuer's CA valid over the years the test's clock reads. */
function longLivedCa() {
  return makeCertificate({
    name: 'Issuer CA',
    notBefore: certificateNotBefore,
    notAfter: new Date('2040-01-01T00:00:00Z'),
  });
}

describe('createTrustedEntity and changeTrustedEntityStatus', () => {
  test("record each change at the clock's time, in the history and in the published status periods", async ({
    testDb: { database },
    bus,
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const time = manualClock(T0);
    const deps = registryDeps(db, bus, time);
    const ca = await longLivedCa();

    const { entity } = await createTrustedEntity(deps, {
      principal: world.lead.owner,
      ecosystemId: world.ecosystemId,
      body: issuerBody([ca.pem]) as TrustedEntityCreateBody,
    });
    expect(entity).toMatchObject({ status: 'active', statusChangedAt: T0 });

    time.advance(60_000);
    await changeTrustedEntityStatus(deps, {
      principal: world.lead.owner,
      ecosystemId: world.ecosystemId,
      entityId: entity.id,
      body: { status: 'suspended', reason: 'audit' },
    });
    // The current status again changes nothing: no history entry, no new sequence.
    time.advance(60_000);
    await changeTrustedEntityStatus(deps, {
      principal: world.lead.owner,
      ecosystemId: world.ecosystemId,
      entityId: entity.id,
      body: { status: 'suspended', reason: 'still auditing' },
    });

    const history = await listTrustedEntityHistory(
      { db },
      { principal: world.member.owner, ecosystemId: world.ecosystemId, entityId: entity.id, window: pageWindow({}) },
    );
    expect(history.rows.map((row) => [row.change, row.at.toISOString(), row.sequence])).toEqual(
      expect.arrayContaining([
        ['created', T0.toISOString(), 1],
        ['status-changed', new Date(T0.getTime() + 60_000).toISOString(), 2],
      ]),
    );
    expect(history.total).toBe(2);

    const snapshot = await getTrustListSnapshot(
      { db, enabled: true, clock: time.clock, validitySeconds: VALIDITY_SECONDS },
      { ecosystemId: world.ecosystemId },
    );
    expect(snapshot.sequence).toBe(2);
    expect(snapshot.entities?.[0]).toMatchObject({
      status: 'suspended',
      statusStartingTime: new Date(T0.getTime() + 60_000),
      statusHistory: [{ status: 'active', startingTime: T0 }],
    });
  });

  test("refuses a certificate that has expired by the clock's time, and writes nothing", async ({
    testDb: { database },
    bus,
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    // Valid today for a year; the registry's clock reads ten years ahead.
    const ca = await makeCa();
    const deps = registryDeps(db, bus, manualClock(new Date(Date.now() + 10 * 365 * 86_400_000)));
    await expect(
      createTrustedEntity(deps, {
        principal: world.lead.owner,
        ecosystemId: world.ecosystemId,
        body: issuerBody([ca.pem]) as TrustedEntityCreateBody,
      }),
    ).rejects.toMatchObject({ statusCode: 400, details: [expect.objectContaining({ path: '/certificates/0/pem' })] });
    const snapshot = await getTrustListSnapshot(
      { db, enabled: true, clock: manualClock().clock, validitySeconds: VALIDITY_SECONDS },
      { ecosystemId: world.ecosystemId },
    );
    expect(snapshot).toMatchObject({ sequence: 0, entities: [] });
  });

  test('a withdrawn entity is final: 409 ENTITY_WITHDRAWN', async ({ testDb: { database }, bus }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const deps = registryDeps(db, bus, manualClock(T0));
    const { entity } = await createTrustedEntity(deps, {
      principal: world.lead.owner,
      ecosystemId: world.ecosystemId,
      body: issuerBody([(await longLivedCa()).pem]) as TrustedEntityCreateBody,
    });
    const change = (status: 'active' | 'withdrawn') =>
      changeTrustedEntityStatus(deps, {
        principal: world.lead.owner,
        ecosystemId: world.ecosystemId,
        entityId: entity.id,
        body: { status, reason: 'test' },
      });
    await change('withdrawn');
    await expect(change('active')).rejects.toMatchObject({ statusCode: 409, code: 'ENTITY_WITHDRAWN' });
  });
});

describe('getTrustListSnapshot', () => {
  test("dates nextUpdate from the clock; a known sequence answers without entities; a non-member's orgId is refused", async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const deps = { db, enabled: true, clock: manualClock(T0).clock, validitySeconds: VALIDITY_SECONDS };
    const nextUpdate = new Date(T0.getTime() + VALIDITY_SECONDS * 1000);

    expect(await getTrustListSnapshot(deps, { ecosystemId: world.ecosystemId, orgId: world.member.orgId })).toEqual({
      ecosystemId: world.ecosystemId,
      sequence: 0,
      nextUpdate,
      entities: [],
    });
    expect(await getTrustListSnapshot(deps, { ecosystemId: world.ecosystemId, knownSequence: 0 })).toEqual({
      ecosystemId: world.ecosystemId,
      sequence: 0,
      nextUpdate,
    });
    await expect(
      getTrustListSnapshot(deps, { ecosystemId: world.ecosystemId, orgId: world.invited.orgId }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'NOT_A_MEMBER' });
    await expect(
      getTrustListSnapshot({ ...deps, enabled: false }, { ecosystemId: world.ecosystemId }),
    ).rejects.toMatchObject({
      code: 'ECOSYSTEM_DISABLED',
    });
  });
});

describe('getSignedTrustList', () => {
  test('signs at the clock time, reuses the list for half its validity, then signs it again', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    // Whole seconds: lists carry their dates to the second.
    const time = manualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
    const ca = await loadCertificateAuthority(await testTrustListCa(), { now: new Date(), label: 'trust-list CA' });
    const deps = {
      db,
      signer: createTrustListSigner(ca),
      signedLists: new SignedTrustListCache({ resignAfterMs: (VALIDITY_SECONDS * 1000) / 2 }),
      clock: time.clock,
      validitySeconds: VALIDITY_SECONDS,
      publicBaseUrl: 'https://ecosystem.example.com',
    };
    const read = () => getSignedTrustList(deps, { principal: world.member.owner, ecosystemId: world.ecosystemId });

    const first = await read();
    expect(first.list).toMatchObject({ sequence: 0, issuedAt: time.now() });
    expect(first.list.nextUpdate).toEqual(new Date(time.now().getTime() + VALIDITY_SECONDS * 1000));

    time.advance((VALIDITY_SECONDS * 1000) / 2 - 1000);
    expect((await read()).list.jws).toBe(first.list.jws);
    time.advance(1000);
    const resigned = await read();
    expect(resigned.list.jws).not.toBe(first.list.jws);
    expect(resigned.list.issuedAt).toEqual(time.now());

    await expect(
      getSignedTrustList(deps, { principal: world.outsider.owner, ecosystemId: world.ecosystemId }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(getSignedTrustList(deps, { principal: null, ecosystemId: world.ecosystemId })).rejects.toMatchObject({
      statusCode: 401,
    });
  });
});
