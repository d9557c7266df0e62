import { describe, expect } from 'vitest';
import {
  createEmptyDatabase,
  startPrivatePostgres,
  waitFor,
  expectEachUnavailableFast,
} from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { noticeBody } from '../support/notice-body.js';
import { ORG } from '../support/world.js';

const server = await startPrivatePostgres();
if (!server)
  process.stderr.write(
    '[tessera] skipping "ecosystem survives a PostgreSQL restart": needs local PostgreSQL binaries\n',
  );

// A PostgreSQL server of its own, so stopping it cannot disturb other test files.
const test = harnessTest(async () => ({
  databaseUrl: await createEmptyDatabase(server!.url),
  afterClose: () => server!.destroy(),
}));

describe.skipIf(!server)('ecosystem survives a PostgreSQL restart', () => {
  test('answers 503 fast during the outage, keeps every acknowledged write, and recovers without a restart', async ({
    harness: h,
    world,
  }) => {
    const pg = server!;
    const lead = world.tokens.lead;
    const intents: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
        token: lead,
        body: { name: `intent-${i}`, description: `d${i}` },
      });
      expect(created.status).toBe(201);
      intents.push(created.body.data.id);
    }
    expect(
      (
        await h.call('POST', `/v1/intent/${intents[0]}/template`, {
          token: lead,
          body: { templateId: 'issuer-template', role: 'issuer' },
        })
      ).status,
    ).toBe(201);
    expect((await h.call('POST', `/v1/intent/${intents[0]}/notice`, { token: lead, body: noticeBody() })).status).toBe(
      201,
    );
    expect(
      (
        await h.call('PUT', `/v1/intent/${intents[0]}/notice`, {
          token: lead,
          body: noticeBody({ title: 'Second version' }),
        })
      ).status,
    ).toBe(200);

    await pg.stop();
    expect((await h.call('GET', '/health/ready')).status).toBe(503);
    expect((await h.call('GET', '/health')).status).toBe(200);
    const attempts = [
      () =>
        h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
          token: lead,
          body: { name: 'during-outage', description: '' },
        }),
      () => h.call('GET', `/v1/intent/${intents[1]}`, { token: lead }),
      () => h.call('GET', `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}`, { token: lead }),
      () =>
        h.call('POST', '/v1/ecosystem/update-invitation-status', {
          token: world.tokens.invited,
          body: { status: 'accepted', ecosystemId: world.ecosystemId },
        }),
      () =>
        h.call('PUT', `/v1/organisations/${ORG.outsider}`, { token: world.tokens.outsider, body: { name: 'Renamed' } }),
    ];
    await expectEachUnavailableFast(attempts);
    // Status needs no database and keeps answering.
    expect((await h.call('GET', '/v1/ecosystem/status', { token: lead })).status).toBe(200);

    await pg.start();
    await waitFor(
      async () => (await h.call('GET', '/health/ready')).status === 200,
      20000,
      'readiness after the restart',
    );
    for (const id of intents)
      expect((await h.call('GET', `/v1/intent/${id}`, { token: world.tokens.member })).status).toBe(200);
    const listed = await h.call('GET', `/v1/intent/ecosystem/${world.ecosystemId}?pageSize=100`, { token: lead });
    expect(listed.body.data.data.map((intent: { name: string }) => intent.name).sort()).toEqual(
      intents.map((_, i) => `intent-${i}`).sort(),
    );
    expect((await h.call('GET', `/v1/intent/${intents[0]}/template`, { token: lead })).body.data).toHaveLength(1);
    expect((await h.call('GET', `/v1/intent/${intents[0]}/notice`, { token: lead })).body.data).toMatchObject({
      version: 2,
      title: 'Second version',
    });
    const members = await h.call('GET', `/v1/ecosystem/members?ecosystemId=${world.ecosystemId}`, { token: lead });
    expect(members.body.data.data.map((m: { organisation: { id: string } }) => m.organisation.id).sort()).toEqual(
      [ORG.lead, ORG.member].sort(),
    );
    // Nothing refused during the outage was written; service resumes.
    expect(listed.body.data.data.some((intent: { name: string }) => intent.name === 'during-outage')).toBe(false);
    expect(
      (
        await h.call('POST', '/v1/ecosystem/update-invitation-status', {
          token: world.tokens.invited,
          body: { status: 'accepted', ecosystemId: world.ecosystemId },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, {
          token: lead,
          body: { name: 'after-outage', description: '' },
        })
      ).status,
    ).toBe(201);
  }, 60000);
});
