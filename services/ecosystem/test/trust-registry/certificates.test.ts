import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ErrorCode, type TrustedEntity } from '@tessera/contracts';
import {
  GARBAGE_PEM,
  makeCa,
  makeCaWithoutSki,
  makeCertificate,
  makeExpiredCa,
  makeLeaf,
} from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity, sequenceOf } from '../support/trust-registry.js';

const DAY = 86_400_000;

describe('trusted entity certificates: the upload rules, adding and retiring', () => {
  test('each refused certificate is named at its index with a clear reason; nothing is written', async ({
    harness: h,
    world,
  }) => {
    const good = await makeCa('Fine CA');
    const expired = await makeExpiredCa();
    const noSki = await makeCaWithoutSki();
    const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from('key').toString('base64')}\n-----END PRIVATE KEY-----\n`;
    const before = await sequenceOf(h, world.ecosystemId);
    const refused = await h.call('POST', entitiesPath(world), {
      token: world.tokens.lead,
      body: issuerBody([
        good.pem,
        expired.pem,
        noSki.pem,
        GARBAGE_PEM,
        good.pem,
        key,
        `${good.pem}\n${good.pem}`,
        'hello',
      ]),
    });
    expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
    const details = refused.body.details as Array<{ path: string; message: string }>;
    const at = (i: number) =>
      details
        .filter((d) => d.path === `/certificates/${i}/pem`)
        .map((d) => d.message)
        .join(' | ');
    expect(details.some((d) => d.path === '/certificates/0/pem')).toBe(false);
    expect(at(1)).toMatch(/expired/);
    expect(at(2)).toMatch(/CA certificate without a subject key identifier/);
    expect(at(3)).toMatch(/not a parseable X\.509 certificate/);
    expect(at(4)).toMatch(/same certificate as certificate 0/);
    expect(at(5)).toMatch(/must be a CERTIFICATE, not a PRIVATE KEY/);
    expect(at(6)).toMatch(/exactly one PEM block, found 2/);
    expect(at(7)).toMatch(/exactly one PEM block, found 0/);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
  });

  test('a leaf without SKI is fine, a CA not yet valid is accepted (registered ahead of a rollover), explanatory text around the PEM is dropped', async ({
    harness: h,
    world,
  }) => {
    const ca = await makeCa('Rollover CA');
    const leafNoSki = await makeCertificate({ name: 'Leaf without SKI', ca: false, withSki: false, issuer: ca });
    const future = await makeCertificate({
      name: 'Next CA',
      notBefore: new Date(Date.now() + 30 * DAY),
      notAfter: new Date(Date.now() + 400 * DAY),
    });
    const entity = await registerEntity(
      h,
      world,
      issuerBody([`Bag Attributes\n    friendlyName: leaf\n${leafNoSki.pem}`, future.pem], { name: 'Rollover' }),
    );
    const leaf = entity.certificates.find((c) => c.fingerprint === leafNoSki.fingerprint)!;
    expect(leaf).toMatchObject({ kind: 'leaf', ski: null, aki: ca.ski });
    expect(leaf.pem.startsWith('-----BEGIN CERTIFICATE-----')).toBe(true);
    expect(entity.certificates.find((c) => c.fingerprint === future.fingerprint)).toMatchObject({
      kind: 'ca',
      notBefore: future.certificate.notBefore.toISOString(),
    });
  });

  test('duplicates: a certificate current on a live entity of the ecosystem is refused on another; a withdrawn entity does not hold it any more', async ({
    harness: h,
    world,
  }) => {
    const shared = await makeCa('Shared CA');
    const first = await registerEntity(h, world, issuerBody([shared.pem], { name: 'First holder' }));
    const second = await h.call('POST', entitiesPath(world), {
      token: world.tokens.lead,
      body: issuerBody([shared.pem], { name: 'Second holder' }),
    });
    expectStatus(second, 400, ErrorCode.VALIDATION_FAILED);
    expect(second.body.details[0]).toMatchObject({ path: '/certificates/0/pem' });
    expect(second.body.details[0].message).toContain(
      `already a current certificate of trusted entity "First holder" (${first.id})`,
    );
    // On the same entity again: refused too.
    const again = await h.call('POST', entitiesPath(world, `/${first.id}/certificates`), {
      token: world.tokens.lead,
      body: { certificates: [{ pem: shared.pem }] },
    });
    expectStatus(again, 400, ErrorCode.VALIDATION_FAILED);

    expectStatus(
      await h.call('POST', entitiesPath(world, `/${first.id}/status`), {
        token: world.tokens.lead,
        body: { status: 'withdrawn', reason: 'replaced' },
      }),
      200,
    );
    const successor = await registerEntity(h, world, issuerBody([shared.pem], { name: 'Successor' }));
    expect(successor.certificates[0]!.fingerprint).toBe(shared.fingerprint);
  });

  test('add then retire: the entity answers its current certificates, retired ones stay in the history, retiring the last one is allowed, a retired one may come back', async ({
    harness: h,
    world,
  }) => {
    const ca = await makeCa('Rotating CA');
    const next = await makeCa('Rotating CA 2');
    const leaf = await makeLeaf(next);
    const entity = await registerEntity(h, world, issuerBody([ca.pem], { name: 'Rotating' }));
    const s0 = await sequenceOf(h, world.ecosystemId);

    const added = await h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
      token: world.tokens.lead,
      body: { certificates: [{ pem: next.pem }, { pem: leaf.pem }] },
    });
    expectStatus(added, 201);
    const afterAdd = added.body.data as TrustedEntity;
    expect(afterAdd.certificates.map((c) => c.fingerprint).sort()).toEqual(
      [ca.fingerprint, next.fingerprint, leaf.fingerprint].sort(),
    );
    expect(await sequenceOf(h, world.ecosystemId)).toBe(s0 + 1);

    const oldId = afterAdd.certificates.find((c) => c.fingerprint === ca.fingerprint)!.id;
    const retired = await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${oldId}`), {
      token: world.tokens.lead,
    });
    expectStatus(retired, 200);
    expect((retired.body.data as TrustedEntity).certificates.map((c) => c.fingerprint).sort()).toEqual(
      [next.fingerprint, leaf.fingerprint].sort(),
    );
    expect(await sequenceOf(h, world.ecosystemId)).toBe(s0 + 2);
    // Retired already, or unknown, or another entity's id: 404 CERTIFICATE_NOT_FOUND, sequence unchanged.
    for (const id of [oldId, randomUUID(), 'nope']) {
      expectStatus(
        await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${id}`), { token: world.tokens.lead }),
        404,
        ErrorCode.CERTIFICATE_NOT_FOUND,
      );
    }
    const other = await registerEntity(h, world, issuerBody([(await makeCa('Other CA')).pem], { name: 'Other' }));
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${other.certificates[0]!.id}`), {
        token: world.tokens.lead,
      }),
      404,
      ErrorCode.CERTIFICATE_NOT_FOUND,
    );
    expectStatus(
      await h.call('DELETE', entitiesPath(world, `/${randomUUID()}/certificates/${oldId}`), {
        token: world.tokens.lead,
      }),
      404,
      ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
    );

    for (const c of (retired.body.data as TrustedEntity).certificates) {
      expectStatus(
        await h.call('DELETE', entitiesPath(world, `/${entity.id}/certificates/${c.id}`), { token: world.tokens.lead }),
        200,
      );
    }
    const empty = await h.call('GET', entitiesPath(world, `/${entity.id}`), { token: world.tokens.lead });
    expect(empty.body.data.certificates).toEqual([]);
    // The retired CA may be added again (a new certificate row; the old one stays retired).
    const back = await h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
      token: world.tokens.lead,
      body: { certificates: [{ pem: ca.pem }] },
    });
    expectStatus(back, 201);
    expect(back.body.data.certificates[0].id).not.toBe(oldId);

    const history = (
      await h.call('GET', entitiesPath(world, `/${entity.id}/history?pageSize=100`), { token: world.tokens.member })
    ).body.data.data as Array<Record<string, any>>;
    expect(history.map((e) => e.change)).toEqual([
      'created',
      'certificate-added',
      'certificate-retired',
      'certificate-retired',
      'certificate-retired',
      'certificate-added',
    ]);
    expect(history[1]!.to.certificates.map((c: { fingerprint: string }) => c.fingerprint).sort()).toEqual(
      [next.fingerprint, leaf.fingerprint].sort(),
    );
    expect(history[2]).toMatchObject({
      from: { certificates: [{ id: oldId, fingerprint: ca.fingerprint, kind: 'ca', ski: ca.ski }] },
      to: null,
      actor: 'user-lead',
    });
  });

  test('certificate request limits: 1–20 per request, 16 KiB per PEM', async ({ harness: h, world }) => {
    const entity = await registerEntity(h, world, issuerBody([(await makeCa('Limits CA')).pem], { name: 'Limits' }));
    const path = entitiesPath(world, `/${entity.id}/certificates`);
    expectStatus(
      await h.call('POST', path, { token: world.tokens.lead, body: { certificates: [] } }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    const many = Array.from({ length: 21 }, () => ({ pem: GARBAGE_PEM }));
    const tooMany = await h.call('POST', path, { token: world.tokens.lead, body: { certificates: many } });
    expectStatus(tooMany, 400, ErrorCode.VALIDATION_FAILED);
    expect(tooMany.body.details[0].path).toBe('/certificates');
    const huge = await h.call('POST', path, {
      token: world.tokens.lead,
      body: { certificates: [{ pem: 'A'.repeat(16 * 1024 + 1) }] },
    });
    expectStatus(huge, 400, ErrorCode.VALIDATION_FAILED);
    expect(huge.body.details[0].path).toBe('/certificates/0/pem');
    expectStatus(
      await h.call('POST', path, {
        token: world.tokens.lead,
        body: { certificates: [{ pem: GARBAGE_PEM, extra: 1 }] },
      }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });
});
