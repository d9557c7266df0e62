import { describe, expect } from 'vitest';
import type { HttpMethod } from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { ORG, OTHER_ORG, oid4vpPath } from '../support/management.js';
import { storedWebhooks } from '../support/stored-rows.js';
import { webhookPath, WEBHOOK_TEST_CONFIG } from './support.js';

// The webhook routes as a relying party calls them: create, read, change, rotate,
// delete; what each refuses; who may call them. No session ends here, so no
// receiver: the URLs only need to be acceptable.
const test = harnessTest({ config: WEBHOOK_TEST_CONFIG });

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ALL = ['presentation.verified', 'presentation.failed', 'presentation.expired'];
const DELIVERY = '00000000-0000-4000-8000-000000000000';
const ADMIN = { roles: ['admin'] };

/** Every webhook route of verifier `verifierId`, with a valid body where it takes one. */
const routes = (verifierId: string): Array<[HttpMethod, string, unknown?]> => [
  ['PUT', webhookPath(verifierId), { url: 'https://rp.example/hooks', events: ['presentation.verified'] }],
  ['GET', webhookPath(verifierId)],
  ['POST', `${webhookPath(verifierId)}/rotate-secret`],
  ['GET', `${webhookPath(verifierId)}/deliveries`],
  ['POST', `${webhookPath(verifierId)}/deliveries/${DELIVERY}/redeliver`],
  ['DELETE', webhookPath(verifierId)],
];

describe('webhook management', () => {
  test('PUT creates with a generated secret shown once (201), GET never shows it, PUT again answers without it and keeps it, rotate replaces it, DELETE removes the webhook', async ({
    api,
    desk,
    harness,
  }) => {
    const created = await api(
      'PUT',
      webhookPath(desk),
      { url: 'https://rp.example/hooks?token=t', events: ['presentation.verified'] },
      ADMIN,
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      statusCode: 201,
      message: 'Webhook created.',
      data: {
        verifierId: desk,
        url: 'https://rp.example/hooks?token=t',
        events: ['presentation.verified'],
        secret: expect.stringMatching(SECRET),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const secret = created.body.data.secret as string;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const read = await api('GET', webhookPath(desk));
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      verifierId: desk,
      url: 'https://rp.example/hooks?token=t',
      events: ['presentation.verified'],
      createdAt: created.body.data.createdAt,
      updatedAt: created.body.data.updatedAt,
    });
    expect(read.raw).not.toContain(secret.slice('whsec_'.length));

    // Stored sealed with KEY_ENCRYPTION_KEY, never in the clear.
    const [row] = await storedWebhooks(harness.testDb.database);
    expect(row!.encryptedSecret).not.toContain(secret.slice('whsec_'.length));
    expect(row!.encryptedSecret).toMatch(/^v1\./);

    // A change of an existing webhook never shows the secret again (issue 28, item 4), whoever asks.
    const changed = await api('PUT', webhookPath(desk), { url: 'https://rp.example/other', events: ALL }, ADMIN);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      statusCode: 200,
      message: 'Webhook saved.',
      data: {
        verifierId: desk,
        url: 'https://rp.example/other',
        events: ALL,
        createdAt: created.body.data.createdAt,
        updatedAt: expect.any(String),
      },
    });
    expect(changed.raw).not.toContain('whsec_');
    expect(changed.raw).not.toContain(secret.slice('whsec_'.length));
    for (const roles of [['owner'], ['verifier']]) {
      const again = await api('PUT', webhookPath(desk), { url: 'https://rp.example/other', events: ALL }, { roles });
      expect(again.status, roles[0]).toBe(200);
      expect(again.body.data.secret).toBeUndefined();
      expect(again.raw).not.toContain('whsec_');
    }
    // The secret it kept still signs: the row holds the sealed value created first.
    const [kept] = await storedWebhooks(harness.testDb.database);
    expect(kept!.encryptedSecret).toBe(row!.encryptedSecret);

    const rotated = await api('POST', `${webhookPath(desk)}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({
      url: 'https://rp.example/other',
      events: ALL,
      secret: expect.stringMatching(SECRET),
    });
    expect(rotated.body.data.secret).not.toBe(secret);

    const deleted = await api('DELETE', webhookPath(desk));
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ verifierId: desk, url: 'https://rp.example/other' });
    expect(deleted.raw).not.toContain('whsec_');
    for (const [method, path] of routes(desk).slice(1)) {
      const gone = await api(method, path);
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body.code).toBe('WEBHOOK_NOT_FOUND');
    }
    // A new PUT is a new webhook with a new secret.
    const again = await api(
      'PUT',
      webhookPath(desk),
      { url: 'https://rp.example/hooks', events: ['presentation.failed'] },
      ADMIN,
    );
    expect(again.status).toBe(201);
    expect(again.body.data.secret).toMatch(SECRET);
    expect(again.body.data.secret).not.toBe(rotated.body.data.secret);
    expect((await api('DELETE', webhookPath(desk))).status).toBe(200);
  });

  test('creating a webhook or changing its url is for owners and admins: the verifier role gets 403 and changes nothing, but may change the events of the same url', async ({
    api,
    desk,
  }) => {
    const verifierRole = { roles: ['verifier'] };
    const refused = await api(
      'PUT',
      webhookPath(desk),
      { url: 'https://rp.example/hooks', events: ['presentation.verified'] },
      verifierRole,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'FORBIDDEN',
      message:
        'Only an owner or admin of the organisation may create a webhook or change its url; the verifier role may change the events of a webhook whose url stays the same.',
    });
    expect((await api('GET', webhookPath(desk))).body.code).toBe('WEBHOOK_NOT_FOUND');

    for (const roles of [['owner'], ['admin']]) {
      const made = await api(
        'PUT',
        webhookPath(desk),
        { url: `https://rp.example/${roles[0]}`, events: ['presentation.verified'] },
        { roles },
      );
      expect(made.status, roles[0]).toBe(201);
      const moved = await api(
        'PUT',
        webhookPath(desk),
        { url: `https://rp.example/${roles[0]}/moved`, events: ['presentation.verified'] },
        { roles },
      );
      expect(moved.status, roles[0]).toBe(200);
      expect(moved.body.data.url).toBe(`https://rp.example/${roles[0]}/moved`);
      expect((await api('DELETE', webhookPath(desk))).status).toBe(200);
    }

    await api('PUT', webhookPath(desk), { url: 'https://rp.example/kept', events: ['presentation.verified'] }, ADMIN);
    const redirect = await api(
      'PUT',
      webhookPath(desk),
      { url: 'https://attacker.example/hooks', events: ['presentation.verified'] },
      verifierRole,
    );
    expect(redirect.status).toBe(403);
    expect(redirect.body.code).toBe('FORBIDDEN');
    expect((await api('GET', webhookPath(desk))).body.data).toMatchObject({
      url: 'https://rp.example/kept',
      events: ['presentation.verified'],
    });
    const events = await api('PUT', webhookPath(desk), { url: 'https://rp.example/kept', events: ALL }, verifierRole);
    expect(events.status).toBe(200);
    expect(events.body.data).toMatchObject({ url: 'https://rp.example/kept', events: ALL });
    expect(events.body.data.secret).toBeUndefined();
    // A verifier whose id is not the organisation's stays 404 before the role rule.
    const unknown = await api(
      'PUT',
      webhookPath('nobody'),
      { url: 'https://rp.example/kept', events: ALL },
      verifierRole,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('VERIFIER_NOT_FOUND');
    expect((await api('DELETE', webhookPath(desk))).status).toBe(200);
  });

  test('deleting the verifier deletes its webhook', async ({ api }) => {
    expect((await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'short-lived' })).status).toBe(201);
    expect(
      (await api('PUT', webhookPath('short-lived'), { url: 'https://rp.example/hooks', events: ALL }, ADMIN)).status,
    ).toBe(201);
    expect((await api('DELETE', `${oid4vpPath()}/verifier/short-lived`)).status).toBe(200);
    expect((await api('POST', `${oid4vpPath()}/verifier`, { verifierId: 'short-lived' })).status).toBe(201);
    expect((await api('GET', webhookPath('short-lived'))).body.code).toBe('WEBHOOK_NOT_FOUND');
  });

  test('every route: 401 without a token, 403 outside the organisation or as a plain member, owner/admin/verifier allowed', async ({
    harness: h,
    api,
    desk,
  }) => {
    for (const [method, path, body] of routes(desk)) {
      const call = (headers: Record<string, string>) =>
        h.call(method, path, { headers, ...(body !== undefined ? { body } : {}) });
      const none = await call({});
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.body.code).toBe('UNAUTHORIZED');
      expect((await call(await h.auth(OTHER_ORG, ['owner']))).status).toBe(403);
      expect((await call(await h.auth(ORG, ['member']))).status).toBe(403);
    }
    // Each role may manage the webhook (the delivery id is unknown: 404 is past authorization); creating
    // one is for owners and admins, so the verifier role manages the one an admin made.
    for (const role of ['owner', 'admin', 'verifier']) {
      if (role === 'verifier')
        await api(
          'PUT',
          webhookPath(desk),
          { url: 'https://rp.example/hooks', events: ['presentation.failed'] },
          ADMIN,
        );
      for (const [method, path, body] of routes(desk)) {
        const answered = await api(method, path, body, { roles: [role] });
        expect([200, 201, 404], `${role} ${method} ${path}: ${answered.raw}`).toContain(answered.status);
        if (answered.status === 404)
          expect(['WEBHOOK_DELIVERY_NOT_FOUND', 'WEBHOOK_NOT_FOUND']).toContain(answered.body.code);
      }
    }
  });

  test("another organisation's verifier is 404 VERIFIER_NOT_FOUND on every route, and its webhook untouched", async ({
    api,
    desk,
  }) => {
    const theirs = await api('POST', `${oid4vpPath(OTHER_ORG)}/verifier`, { verifierId: 'theirs' }, { org: OTHER_ORG });
    expect(theirs.status).toBe(201);
    const saved = await api(
      'PUT',
      webhookPath('theirs', OTHER_ORG),
      { url: 'https://other.example/hooks', events: ALL },
      { org: OTHER_ORG, roles: ['owner'] },
    );
    expect(saved.status).toBe(201);
    for (const [method, path, body] of routes('theirs')) {
      const answered = await api(method, path, body);
      expect(answered.status, `${method} ${path}`).toBe(404);
      expect(answered.body.code).toBe('VERIFIER_NOT_FOUND');
    }
    const still = await api('GET', webhookPath('theirs', OTHER_ORG), undefined, { org: OTHER_ORG });
    expect(still.body.data).toMatchObject({ url: 'https://other.example/hooks', events: ALL });
    // And an unknown verifier of ORG.
    expect((await api('GET', webhookPath('nobody'))).body.code).toBe('VERIFIER_NOT_FOUND');
    // ORG's own verifier is unaffected by the other organisation's webhook.
    expect((await api('GET', webhookPath(desk))).body.code).toBe('WEBHOOK_NOT_FOUND');
  });

  test('malformed input is 400 and changes nothing', async ({ api, desk }) => {
    expect(
      (
        await api(
          'PUT',
          webhookPath(desk),
          { url: 'https://rp.example/kept', events: ['presentation.verified'] },
          ADMIN,
        )
      ).status,
    ).toBe(201);
    const bad: Array<[unknown, RegExp]> = [
      [{ url: 'https://rp.example/h', events: [] }, /events/],
      [{ url: 'https://rp.example/h', events: ['presentation.verified', 'presentation.verified'] }, /events/],
      [{ url: 'https://rp.example/h', events: ['session.updated'] }, /events/],
      [{ url: 'https://rp.example/h' }, /events/],
      [{ events: ['presentation.verified'] }, /url/],
      [{ url: 'https://rp.example/h', events: ['presentation.verified'], secret: 'whsec_mine' }, /secret|additional/i],
      [{ url: 'not a url', events: ['presentation.verified'] }, /absolute URL/],
      [{ url: 'ftp://rp.example/h', events: ['presentation.verified'] }, /https/],
      [{ url: 'https://user:pass@rp.example/h', events: ['presentation.verified'] }, /user info/],
      [{ url: 'https://rp.example/h#frag', events: ['presentation.verified'] }, /fragment/],
      [{ url: `https://rp.example/${'a'.repeat(2100)}`, events: ['presentation.verified'] }, /url/],
      [{ url: '', events: ['presentation.verified'] }, /url/],
    ];
    for (const [body, message] of bad) {
      const refused = await api('PUT', webhookPath(desk), body);
      expect(refused.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED' });
      expect(`${refused.body.message} ${JSON.stringify(refused.body.details ?? [])}`).toMatch(message);
    }
    expect(
      (await api('PUT', webhookPath(desk), 'not json', { headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect((await api('GET', `${webhookPath(desk)}/deliveries?pageSize=0`)).status).toBe(400);
    expect((await api('GET', `${webhookPath(desk)}/deliveries?pageSize=101`)).status).toBe(400);
    expect((await api('GET', `${webhookPath(desk)}/deliveries?pageNumber=x`)).status).toBe(400);
    const badId = await api('POST', `${webhookPath(desk)}/deliveries/not-a-uuid/redeliver`);
    expect(badId.status).toBe(400);
    expect(badId.body.code).toBe('VALIDATION_FAILED');
    const unknown = await api('POST', `${webhookPath(desk)}/deliveries/${DELIVERY}/redeliver`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    // Nothing changed.
    expect((await api('GET', webhookPath(desk))).body.data).toMatchObject({
      url: 'https://rp.example/kept',
      events: ['presentation.verified'],
    });
    // An empty page is 200.
    const page = await api('GET', `${webhookPath(desk)}/deliveries`);
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual({ totalItems: 0, totalPages: 0, page: 1, pageSize: 10, data: [] });
  });

  test('the routes are in the OpenAPI document', async ({ harness: h }) => {
    const docs = await h.call('GET', '/docs/json');
    const paths = Object.keys(docs.body.paths);
    for (const path of [
      '/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook',
      '/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook/rotate-secret',
      '/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook/deliveries',
      '/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook/deliveries/{deliveryId}/redeliver',
    ]) {
      expect(paths).toContain(path);
    }
    expect(Object.keys(docs.body.paths['/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook']).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    // The creation (201) shows the secret; a change (200) does not; 403 for a verifier-role URL change.
    const put = docs.body.paths['/v1/orgs/{orgId}/oid4vp/verifier/{verifierId}/webhook'].put;
    const dataOf = (status: string) => put.responses[status].content['application/json'].schema.properties.data;
    expect(Object.keys(dataOf('201').properties)).toContain('secret');
    expect(Object.keys(dataOf('200').properties)).not.toContain('secret');
    expect(Object.keys(put.responses)).toContain('403');
    expect(put.description).toMatch(/owner or admin/);
  });
});
