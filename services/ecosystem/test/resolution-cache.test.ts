import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type Database } from '@tessera/service-kit';
import type { IntentResolveRequest, IntentResolveResult } from '@tessera/contracts';
import { resolveIntent, type IntentResolution } from '../src/use-cases/resolve-intent.js';
import { ResolutionCache } from '../src/cache/resolution-cache.js';
import { CHANGE_CHANNEL, openResolutionCache } from '../src/cache/change-notifications.js';
import type { EcosystemDbSchema } from '../src/db/schema.js';
import { startHarness, type Harness } from './support/harness.js';
import { buildWorld, expectStatus, noticeBody, ORG, type World } from './support/world.js';

const request: IntentResolveRequest = { ecosystemId: '5b5b2b0e-1f1f-4c4c-8d8d-9e9e9e9e9e9e', intent: 'Age', orgId: 'o', role: 'verifier' };
const result = (templateId: string): IntentResolveResult => ({ intentId: 'i', intent: 'Age', templateId, scope: 'ecosystem' });

describe('ResolutionCache', () => {
  it('reuses an outcome within its lifetime, for the same request in any letter case', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const compute = async () => result(`t${++computed}`);
    expect((await cache.resolve(request, compute)).templateId).toBe('t1');
    expect((await cache.resolve({ ...request, intent: 'AGE', ecosystemId: request.ecosystemId.toUpperCase() }, compute)).templateId).toBe('t1');
    now = 1000;
    expect((await cache.resolve(request, compute)).templateId).toBe('t2');
  });

  it('keeps refusals too, and never keeps unexpected errors', async () => {
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 1000, maxEntries: 10 });
    let calls = 0;
    const refuse = async () => {
      calls += 1;
      throw new AppError(403, 'NOT_A_MEMBER', 'no');
    };
    await expect(cache.resolve(request, refuse)).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
    await expect(cache.resolve(request, refuse)).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
    expect(calls).toBe(1);
    const other = { ...request, orgId: 'p' };
    await expect(cache.resolve(other, async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect((await cache.resolve(other, async () => result('fresh'))).templateId).toBe('fresh');
  });

  it('does not keep an outcome computed across a clear', async () => {
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 10_000, maxEntries: 10 });
    let release: (value: IntentResolveResult) => void = () => {};
    const pending = cache.resolve(request, () => new Promise((resolve) => (release = resolve)));
    cache.clear();
    release(result('old'));
    expect((await pending).templateId).toBe('old');
    expect((await cache.resolve(request, async () => result('new'))).templateId).toBe('new');
  });

  it('hands out copies that callers cannot change', async () => {
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 10_000, maxEntries: 10 });
    const first = await cache.resolve(request, async () => result('t'));
    first.templateId = 'changed';
    expect((await cache.resolve(request, async () => result('x'))).templateId).toBe('t');
  });
});

/**
 * The app's own cache listens on the same connection, so notifications of the setup's
 * writes may still be on their way to this test's cache: wait for one sent after them
 * (a connection delivers notifications in order).
 */
async function settleNotifications(database: Database<EcosystemDbSchema>): Promise<void> {
  const marker = randomUUID();
  let arrived: () => void = () => {};
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const stop = await database.listen(CHANGE_CHANNEL, (payload) => payload === marker && arrived(), () => {});
  await database.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${marker})`);
  await arrival;
  await stop();
}

describe('intent resolutions follow committed changes', () => {
  let h: Harness;
  let world: World;
  let intentId: string;
  let cache: ResolutionCache<IntentResolution>;
  let unlisten: () => Promise<void>;
  let computed = 0;

  beforeAll(async () => {
    h = await startHarness();
    world = await buildWorld(h);
    intentId = (await h.call('POST', `/v1/intent/ecosystem/${world.ecosystemId}`, { token: world.tokens.lead, body: { name: 'Age Check', description: '' } })).body.data.id;
    expectStatus(await h.call('POST', `/v1/intent/${intentId}/template`, { token: world.tokens.lead, body: { templateId: 'cred-issuer', role: 'issuer' } }), 201);
    const opened = await openResolutionCache<IntentResolution>({ database: h.testDb.database, ttlMs: 60_000, maxEntries: 100 });
    cache = opened.resolutions;
    unlisten = opened.close;
    await settleNotifications(h.testDb.database);
  });
  afterAll(async () => {
    await unlisten();
    await h.close();
  });

  const resolve = (orgId: string) => {
    const req: IntentResolveRequest = { ecosystemId: world.ecosystemId, intent: 'age check', orgId, role: 'verifier' };
    return cache.resolve(req, () => {
      computed += 1;
      return resolveIntent({ db: h.testDb.database.db, enabled: true }, req);
    });
  };
  const cleared = async () => {
    const deadline = Date.now() + 5000;
    while (cache.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(cache.size).toBe(0);
  };

  it('reuses a resolution until a write commits, then resolves afresh', async () => {
    await expect(resolve(ORG.lead)).rejects.toMatchObject({ code: 'INTENT_TEMPLATE_NOT_FOUND' });
    await expect(resolve(ORG.lead)).rejects.toMatchObject({ code: 'INTENT_TEMPLATE_NOT_FOUND' });
    expect(computed).toBe(1);

    // A verifier-role mapping needs the verifier's answer; a direct write shows the same notification.
    await h.testDb.database.db.execute(
      (await import('drizzle-orm')).sql`insert into ecosystem.intent_templates (id, intent_id, template_id, role, created_by, last_changed_by) values (gen_random_uuid(), ${intentId}, 'tpl-global', 'verifier', 'test', 'test')`,
    );
    await cleared();
    expect(await resolve(ORG.lead)).toMatchObject({ templateId: 'tpl-global', scope: 'ecosystem' });

    expectStatus(await h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body: noticeBody() }), 201);
    await cleared();
    expect(await resolve(ORG.lead)).toMatchObject({ notice: { version: 1 } });
  });

  it('stops resolving for an organisation whose membership ends', async () => {
    expect(await resolve(ORG.member)).toMatchObject({ templateId: 'tpl-global' });
    await h.testDb.database.db.execute(
      (await import('drizzle-orm')).sql`update ecosystem.memberships set status = 'INACTIVE' where org_id = ${ORG.member} and ecosystem_id = ${world.ecosystemId}`,
    );
    await cleared();
    await expect(resolve(ORG.member)).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
  });
});
