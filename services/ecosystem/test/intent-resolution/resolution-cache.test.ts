import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { IntentResolveRequest, IntentResolveResult } from '@tessera/contracts';
import { AppError, systemClock, type Database } from '@tessera/service-kit';
import { CHANGE_CHANNEL, openResolutionCache } from '../../src/state/change-notifications.js';
import { ResolutionCache } from '../../src/state/resolution-cache.js';
import type { EcosystemDbSchema } from '../../src/db/schema.js';
import { resolveIntent, type IntentResolution } from '../../src/use-cases/resolve-intent.js';
import { harnessTest } from '../support/fixtures.js';
import { noticeBody } from '../support/notice-body.js';
import { expectStatus } from '../support/responses.js';
import { createIntentAsLead, ORG } from '../support/world.js';

const request: IntentResolveRequest = {
  ecosystemId: '5b5b2b0e-1f1f-4c4c-8d8d-9e9e9e9e9e9e',
  intent: 'Age',
  orgId: 'o',
  role: 'verifier',
};
const result = (templateId: string): IntentResolveResult => ({
  intentId: 'i',
  intent: 'Age',
  templateId,
  scope: 'ecosystem',
});

describe('ResolutionCache', () => {
  it('reuses an outcome within its lifetime, for the same request in any letter case', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 1000, maxEntries: 10, clock: () => new Date(now) });
    const compute = async () => result(`t${++computed}`);
    expect((await cache.resolve(request, compute)).templateId).toBe('t1');
    expect(
      (await cache.resolve({ ...request, intent: 'AGE', ecosystemId: request.ecosystemId.toUpperCase() }, compute))
        .templateId,
    ).toBe('t1');
    now = 1000;
    expect((await cache.resolve(request, compute)).templateId).toBe('t2');
  });

  it('keeps refusals too, and never keeps unexpected errors', async () => {
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 1000, maxEntries: 10, clock: systemClock });
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
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 10_000, maxEntries: 10, clock: systemClock });
    let release: (value: IntentResolveResult) => void = () => {};
    const pending = cache.resolve(request, () => new Promise((resolve) => (release = resolve)));
    cache.clear();
    release(result('old'));
    expect((await pending).templateId).toBe('old');
    expect((await cache.resolve(request, async () => result('new'))).templateId).toBe('new');
  });

  it('hands out copies that callers cannot change', async () => {
    const cache = new ResolutionCache<IntentResolveResult>({ ttlMs: 10_000, maxEntries: 10, clock: systemClock });
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
  const stop = await database.listen(
    CHANGE_CHANNEL,
    (payload) => payload === marker && arrived(),
    () => {},
  );
  await database.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${marker})`);
  await arrival;
  await stop();
}

/** Resolutions of 'age check' through a cache kept fresh by change notifications, counting what was computed. */
interface CountedResolutions {
  cache: ResolutionCache<IntentResolution>;
  computed: () => number;
  resolve(orgId: string): Promise<IntentResolution>;
  /** Resolves once every entry of the cache has been forgotten (a notification arrived). */
  cleared(): Promise<void>;
}

const test = harnessTest()
  .extend('intentId', { scope: 'file' }, async ({ harness: h, world }) => {
    const intentId = await createIntentAsLead(h, world, 'Age Check');
    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/template`, {
        token: world.tokens.lead,
        body: { templateId: 'cred-issuer', role: 'issuer' },
      }),
      201,
    );
    return intentId;
  })
  // Depends on intentId so that the setup's writes come first: their notifications must not land mid-test.
  .extend(
    'resolutions',
    { scope: 'file' },
    async ({ harness: h, world, intentId: _setUp }, { onCleanup }): Promise<CountedResolutions> => {
      const opened = await openResolutionCache<IntentResolution>({
        database: h.database,
        ttlMs: 60_000,
        maxEntries: 100,
        clock: systemClock,
      });
      onCleanup(() => opened.close());
      await settleNotifications(h.database);
      const cache = opened.resolutions;
      let computed = 0;
      return {
        cache,
        computed: () => computed,
        resolve: (orgId) => {
          const req: IntentResolveRequest = {
            ecosystemId: world.ecosystemId,
            intent: 'age check',
            orgId,
            role: 'verifier',
          };
          return cache.resolve(req, () => {
            computed += 1;
            return resolveIntent({ db: h.database.db, enabled: true }, req);
          });
        },
        cleared: async () => {
          const deadline = Date.now() + 5000;
          while (cache.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          expect(cache.size).toBe(0);
        },
      };
    },
  );

describe('intent resolutions follow committed changes', () => {
  test('reuses a resolution until a write commits, then resolves afresh', async ({
    harness: h,
    world,
    intentId,
    resolutions,
  }) => {
    const { resolve, cleared } = resolutions;
    await expect(resolve(ORG.lead)).rejects.toMatchObject({ code: 'INTENT_TEMPLATE_NOT_FOUND' });
    await expect(resolve(ORG.lead)).rejects.toMatchObject({ code: 'INTENT_TEMPLATE_NOT_FOUND' });
    expect(resolutions.computed()).toBe(1);

    // A verifier-role mapping needs the verifier's answer; a direct write shows the same notification.
    await h.database.db.execute(
      sql`insert into ecosystem.intent_templates (id, intent_id, template_id, role, created_by, last_changed_by) values (gen_random_uuid(), ${intentId}, 'tpl-global', 'verifier', 'test', 'test')`,
    );
    await cleared();
    expect(await resolve(ORG.lead)).toMatchObject({ templateId: 'tpl-global', scope: 'ecosystem' });

    expectStatus(
      await h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body: noticeBody() }),
      201,
    );
    await cleared();
    expect(await resolve(ORG.lead)).toMatchObject({ notice: { version: 1 } });
  });

  test('stops resolving for an organisation whose membership ends', async ({ harness: h, world, resolutions }) => {
    const { resolve, cleared } = resolutions;
    expect(await resolve(ORG.member)).toMatchObject({ templateId: 'tpl-global' });
    await h.database.db.execute(
      sql`update ecosystem.memberships set status = 'INACTIVE' where org_id = ${ORG.member} and ecosystem_id = ${world.ecosystemId}`,
    );
    await cleared();
    await expect(resolve(ORG.member)).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
  });
});
