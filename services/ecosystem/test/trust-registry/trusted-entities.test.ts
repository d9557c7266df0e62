import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ErrorCode, type TrustedEntity } from '@tessera/contracts';
import { makeCa, makeLeaf } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { expectStatus } from '../support/responses.js';
import {
  entitiesPath,
  issuerBody,
  MDL_DOCTYPE,
  PID_VCT,
  registerEntity,
  sequenceOf,
} from '../support/trust-registry.js';
import { ORG } from '../support/world.js';

describe('trusted entities: register, read, list, change', () => {
  test('the lead registers an issuer: 201 with the parsed certificates, active, sequence advanced by one', async ({
    harness: h,
    world,
  }) => {
    const ca = await makeCa('PID Provider CA');
    const leaf = await makeLeaf(ca, 'PID Provider Signer');
    const before = await sequenceOf(h, world.ecosystemId);
    const created = await h.call('POST', entitiesPath(world), {
      token: world.tokens.lead,
      body: issuerBody([ca.pem, leaf.pem], {
        name: '  PID   Provider ',
        orgId: ORG.member,
        informationUri: 'https://pid.example.org/about',
      }),
    });
    expectStatus(created, 201);
    const entity = created.body.data as TrustedEntity;
    expect(entity).toMatchObject({
      ecosystemId: world.ecosystemId,
      name: 'PID Provider',
      role: 'issuer',
      orgId: ORG.member,
      informationUri: 'https://pid.example.org/about',
      allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: PID_VCT }],
      status: 'active',
      statusReason: null,
      createdBy: 'user-lead',
    });
    const byFingerprint = new Map(entity.certificates.map((c) => [c.fingerprint, c]));
    expect(byFingerprint.get(ca.fingerprint)).toMatchObject({
      kind: 'ca',
      ski: ca.ski,
      aki: null,
      notAfter: ca.certificate.notAfter.toISOString(),
    });
    expect(byFingerprint.get(ca.fingerprint)!.subject).toContain('CN=PID Provider CA');
    expect(byFingerprint.get(leaf.fingerprint)).toMatchObject({ kind: 'leaf', aki: ca.ski, ski: leaf.ski });
    expect(byFingerprint.get(leaf.fingerprint)!.pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before + 1);

    const read = await h.call('GET', entitiesPath(world, `/${entity.id}`), { token: world.tokens.member });
    expectStatus(read, 200);
    expect(read.body.data).toEqual(entity);
  });

  test('a verifier entity without allowed types, and an outside party without orgId', async ({ harness: h, world }) => {
    const ca = await makeCa('Verifier CA');
    const entity = await registerEntity(h, world, {
      name: 'Outside Verifier',
      role: 'verifier',
      certificates: [{ pem: ca.pem }],
    });
    expect(entity).toMatchObject({ role: 'verifier', orgId: null, informationUri: null, allowedCredentialTypes: [] });
  });

  test('lists oldest first, filtered by role, status, vct and doctype, paged as the platform pages', async ({
    harness: h,
    world,
  }) => {
    const path = `/v1/ecosystem/${world.ecosystemId}/trusted-entities`;
    // A fresh ecosystem-wide view: count what other tests registered first.
    const all0 = (await h.call('GET', `${path}?pageSize=100`, { token: world.tokens.lead })).body.data
      .totalItems as number;
    const mdl = await registerEntity(
      h,
      world,
      issuerBody([(await makeCa('mDL CA')).pem], {
        name: 'mDL Issuer',
        allowedCredentialTypes: [{ format: 'mso_mdoc', doctype: MDL_DOCTYPE }],
      }),
    );
    const pid = await registerEntity(h, world, issuerBody([(await makeCa('PID CA 2')).pem], { name: 'PID Issuer 2' }));
    const all = await h.call('GET', `${path}?pageSize=100`, { token: world.tokens.member });
    expectStatus(all, 200);
    expect(all.body.data.totalItems).toBe(all0 + 2);
    const ids = (all.body.data.data as TrustedEntity[]).map((e) => e.id);
    expect(ids.indexOf(mdl.id)).toBeLessThan(ids.indexOf(pid.id));

    const byDoctype = await h.call('GET', `${path}?doctype=${encodeURIComponent(MDL_DOCTYPE)}`, {
      token: world.tokens.lead,
    });
    expect((byDoctype.body.data.data as TrustedEntity[]).map((e) => e.id)).toEqual([mdl.id]);
    const byVct = (
      await h.call('GET', `${path}?vct=${encodeURIComponent(PID_VCT)}&pageSize=100`, { token: world.tokens.lead })
    ).body.data.data as TrustedEntity[];
    expect(byVct.map((e) => e.id)).toContain(pid.id);
    expect(byVct.map((e) => e.id)).not.toContain(mdl.id);
    expect(
      byVct.every((e) => e.allowedCredentialTypes.some((t) => t.format === 'dc+sd-jwt' && t.vct === PID_VCT)),
    ).toBe(true);
    const verifiers = (await h.call('GET', `${path}?role=verifier&pageSize=100`, { token: world.tokens.lead })).body
      .data.data as TrustedEntity[];
    expect(verifiers.every((e) => e.role === 'verifier')).toBe(true);
    expect(verifiers.map((e) => e.id)).not.toContain(pid.id);

    expectStatus(
      await h.call('POST', entitiesPath(world, `/${mdl.id}/status`), {
        token: world.tokens.lead,
        body: { status: 'suspended', reason: 'audit' },
      }),
      200,
    );
    const suspended = await h.call('GET', `${path}?status=suspended&doctype=${encodeURIComponent(MDL_DOCTYPE)}`, {
      token: world.tokens.lead,
    });
    expect((suspended.body.data.data as TrustedEntity[]).map((e) => e.id)).toEqual([mdl.id]);
    expect(
      (
        await h.call('GET', `${path}?status=withdrawn&doctype=${encodeURIComponent(MDL_DOCTYPE)}`, {
          token: world.tokens.lead,
        })
      ).body.data,
    ).toMatchObject({ totalItems: 0, data: [] });

    const page2 = await h.call('GET', `${path}?pageSize=1&pageNumber=2`, { token: world.tokens.lead });
    expectStatus(page2, 200);
    expect(page2.body.data).toMatchObject({ totalItems: all0 + 2, totalPages: all0 + 2, page: 2, pageSize: 1 });
    expect((page2.body.data.data as TrustedEntity[])[0]!.id).toBe(ids[1]);
    const beyond = await h.call('GET', `${path}?pageSize=10&pageNumber=99`, { token: world.tokens.lead });
    expectStatus(beyond, 200);
    expect(beyond.body.data.data).toEqual([]);
    for (const query of ['pageSize=0', 'pageSize=101', 'pageNumber=0', 'role=admin', 'status=gone', 'vct=']) {
      expectStatus(
        await h.call('GET', `${path}?${query}`, { token: world.tokens.lead }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    }
  });

  test('PATCH changes name, information URI and allowed types, records only what changed, and nothing when nothing changes', async ({
    harness: h,
    world,
  }) => {
    const entity = await registerEntity(
      h,
      world,
      issuerBody([(await makeCa('Patch CA')).pem], { name: 'Patchable', informationUri: 'https://a.example.org' }),
    );
    const before = await sequenceOf(h, world.ecosystemId);
    const patched = await h.call('PATCH', entitiesPath(world, `/${entity.id}`), {
      token: world.tokens.lead,
      body: {
        name: 'Patched',
        informationUri: null,
        allowedCredentialTypes: [
          { format: 'dc+sd-jwt', vct: PID_VCT },
          { format: 'mso_mdoc', doctype: MDL_DOCTYPE },
        ],
      },
    });
    expectStatus(patched, 200);
    expect(patched.body.data).toMatchObject({
      name: 'Patched',
      informationUri: null,
      allowedCredentialTypes: [
        { format: 'dc+sd-jwt', vct: PID_VCT },
        { format: 'mso_mdoc', doctype: MDL_DOCTYPE },
      ],
    });
    expect(patched.body.data.certificates).toHaveLength(1);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before + 1);

    // The same values again: 200, unchanged, no history entry, same sequence.
    const again = await h.call('PATCH', entitiesPath(world, `/${entity.id}`), {
      token: world.tokens.lead,
      body: { name: 'Patched', informationUri: null },
    });
    expectStatus(again, 200);
    expect(again.body.data.lastChangedDateTime).toBe(patched.body.data.lastChangedDateTime);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before + 1);

    const history = (await h.call('GET', entitiesPath(world, `/${entity.id}/history`), { token: world.tokens.lead }))
      .body.data.data as Array<Record<string, unknown>>;
    expect(history.map((e) => e.change)).toEqual(['created', 'updated']);
    expect(history[1]).toMatchObject({
      sequence: before + 1,
      from: {
        name: 'Patchable',
        informationUri: 'https://a.example.org',
        allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: PID_VCT }],
      },
      to: { name: 'Patched', informationUri: null },
      actor: 'user-lead',
      reason: null,
    });
  });

  test('PATCH refusals: empty types for an issuer, types for a verifier, duplicates, blank name, empty body, unknown fields, role change', async ({
    harness: h,
    world,
  }) => {
    const issuer = await registerEntity(h, world, issuerBody([(await makeCa('Refusal CA')).pem], { name: 'Refusals' }));
    const verifier = await registerEntity(h, world, {
      name: 'Refusal Verifier',
      role: 'verifier',
      certificates: [{ pem: (await makeCa('RV CA')).pem }],
    });
    const before = await sequenceOf(h, world.ecosystemId);
    const patch = (id: string, body: unknown) =>
      h.call('PATCH', entitiesPath(world, `/${id}`), { token: world.tokens.lead, body });
    const cases: Array<[string, unknown, string]> = [
      [issuer.id, { allowedCredentialTypes: [] }, '/allowedCredentialTypes'],
      [verifier.id, { allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: PID_VCT }] }, '/allowedCredentialTypes'],
      [
        issuer.id,
        {
          allowedCredentialTypes: [
            { format: 'dc+sd-jwt', vct: PID_VCT },
            { format: 'dc+sd-jwt', vct: PID_VCT },
          ],
        },
        '/allowedCredentialTypes/1',
      ],
      [issuer.id, { name: '   ' }, '/name'],
      [issuer.id, { informationUri: 'ftp://example.org' }, '/informationUri'],
      [issuer.id, { role: 'verifier' }, '/role'],
      [issuer.id, { orgId: ORG.member }, '/orgId'],
    ];
    for (const [id, body, path] of cases) {
      const refused = await patch(id, body);
      expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
      expect(
        refused.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expectStatus(await patch(issuer.id, {}), 400, ErrorCode.VALIDATION_FAILED);
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
  });

  test('registration refusals name each problem and write nothing', async ({ harness: h, world }) => {
    const ca = await makeCa('Good CA');
    const before = await sequenceOf(h, world.ecosystemId);
    const count = async () =>
      (await h.call('GET', `${entitiesPath(world)}?pageSize=100`, { token: world.tokens.lead })).body.data
        .totalItems as number;
    const entities0 = await count();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [issuerBody([ca.pem], { allowedCredentialTypes: [] }), ['/allowedCredentialTypes']],
      [issuerBody([ca.pem], { allowedCredentialTypes: undefined }), ['/allowedCredentialTypes']],
      [
        {
          name: 'V',
          role: 'verifier',
          allowedCredentialTypes: [{ format: 'mso_mdoc', doctype: MDL_DOCTYPE }],
          certificates: [{ pem: ca.pem }],
        },
        ['/allowedCredentialTypes'],
      ],
      [issuerBody([ca.pem], { orgId: ORG.invited }), ['/orgId']],
      [issuerBody([ca.pem], { orgId: ORG.outsider }), ['/orgId']],
      [issuerBody([ca.pem], { orgId: 'org-unknown' }), ['/orgId']],
      [
        issuerBody([ca.pem], { name: ' ', orgId: ORG.rejected, allowedCredentialTypes: [] }),
        ['/name', '/orgId', '/allowedCredentialTypes'],
      ],
      [issuerBody([], {}), ['/certificates']],
      [issuerBody([ca.pem], { name: 'x'.repeat(201) }), ['/name']],
      [issuerBody([ca.pem], { informationUri: 'not a url' }), ['/informationUri']],
      [issuerBody([ca.pem], { role: 'auditor' }), ['/role']],
      [
        issuerBody([ca.pem], { allowedCredentialTypes: [{ format: 'jwt_vc_json', vct: PID_VCT }] }),
        ['/allowedCredentialTypes/0'],
      ],
      [
        issuerBody([ca.pem], {
          allowedCredentialTypes: Array.from({ length: 51 }, (_, i) => ({ format: 'dc+sd-jwt', vct: `urn:t:${i}` })),
        }),
        ['/allowedCredentialTypes'],
      ],
    ];
    for (const [body, paths] of cases) {
      const refused = await h.call('POST', entitiesPath(world), { token: world.tokens.lead, body });
      expectStatus(refused, 400, ErrorCode.VALIDATION_FAILED);
      const got = (refused.body.details as Array<{ path: string }>).map((d) => d.path);
      for (const path of paths)
        expect(
          got.some((p) => p.startsWith(path)),
          `${path} in ${JSON.stringify(refused.body)}`,
        ).toBe(true);
    }
    expect(await sequenceOf(h, world.ecosystemId)).toBe(before);
    expect(await count()).toBe(entities0);
  });

  test('the lead organisation itself may be the entity; unknown and foreign entity ids are 404 TRUSTED_ENTITY_NOT_FOUND', async ({
    harness: h,
    world,
  }) => {
    const own = await registerEntity(
      h,
      world,
      issuerBody([(await makeCa('Lead CA')).pem], { name: 'Lead as issuer', orgId: ORG.lead }),
    );
    expect(own.orgId).toBe(ORG.lead);
    for (const id of [randomUUID(), 'not-a-uuid', 'urn:uuid:' + randomUUID()]) {
      expectStatus(
        await h.call('GET', entitiesPath(world, `/${encodeURIComponent(id)}`), { token: world.tokens.lead }),
        404,
        ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
      );
      expectStatus(
        await h.call('PATCH', entitiesPath(world, `/${encodeURIComponent(id)}`), {
          token: world.tokens.lead,
          body: { name: 'x' },
        }),
        404,
        ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
      );
      expectStatus(
        await h.call('GET', entitiesPath(world, `/${encodeURIComponent(id)}/history`), { token: world.tokens.lead }),
        404,
        ErrorCode.TRUSTED_ENTITY_NOT_FOUND,
      );
    }
  });
});
