// Intents, their templates and their resolution for a verifier, through the use cases'
// deps: the file's database, and the verifier's side of the template check answered on
// an in-process bus by a stand-in that knows which organisation owns which template.
import { describe, expect } from 'vitest';
import { ErrorCode, verificationTemplateGetRpc } from '@tessera/contracts';
import { AppError, InProcessBus, serveRequests } from '@tessera/service-kit';
import { InProcessHub, manualClock, silentLogger } from '@tessera/service-kit/testing';
import type { EcosystemDb } from '../../src/db/types.js';
import { ResolutionCache } from '../../src/state/resolution-cache.js';
import { createIntent } from '../../src/use-cases/create-intent.js';
import { createIntentTemplate } from '../../src/use-cases/create-intent-template.js';
import { deleteIntent } from '../../src/use-cases/delete-intent.js';
import { resolveIntent, type IntentResolution } from '../../src/use-cases/resolve-intent.js';
import { updateIntent } from '../../src/use-cases/update-intent.js';
import { formEcosystem, unique, useCaseTest, type FormedEcosystem } from '../support/use-cases.js';

/** Template id → owning organisation, as the stand-in verifier answers. */
const templateOwners = new Map<string, string>();

const test = useCaseTest.extend('bus', { scope: 'file' }, async ({}, { onCleanup }) => {
  const hub = new InProcessHub();
  const verifier = new InProcessBus(hub);
  const stop = serveRequests(verifier, verificationTemplateGetRpc, {
    logger: silentLogger(),
    handler: async ({ templateId }) => {
      const orgId = templateOwners.get(templateId);
      if (!orgId) throw new AppError(404, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND, `No template ${templateId}.`);
      return { id: templateId, orgId, name: templateId, signerOption: 'X509_P256' as const };
    },
  });
  const bus = new InProcessBus(hub);
  onCleanup(async () => {
    stop();
    await bus.close();
    await verifier.close();
  });
  return bus;
});

/** A verification template the stand-in verifier knows, owned by `orgId`. */
function verificationTemplateOf(orgId: string): string {
  const templateId = unique('vt');
  templateOwners.set(templateId, orgId);
  return templateId;
}

/** A formed ecosystem with intent "Age check", and how its lead adds a verifier-role template to it. */
async function withIntent(db: EcosystemDb, bus: InProcessBus) {
  const world = await formEcosystem(db);
  const intent = await createIntent(
    { db },
    { principal: world.lead.owner, ecosystemId: world.ecosystemId, body: { name: 'Age check', description: '' } },
  );
  const addTemplate = (templateId: string, orgId?: string) =>
    createIntentTemplate(
      { db, bus },
      {
        principal: world.lead.owner,
        intentId: intent.id,
        body: { templateId, role: 'verifier', ...(orgId ? { orgId } : {}) },
        requestId: unique('req'),
      },
    );
  return { world, intent, addTemplate };
}

const resolveFor = (world: FormedEcosystem, orgId: string, intent: string) => ({
  ecosystemId: world.ecosystemId,
  intent,
  orgId,
  role: 'verifier' as const,
});

describe('createIntent, updateIntent, deleteIntent', () => {
  test('the lead names intents uniquely (ignoring case); a deleted intent frees its name', async ({
    testDb: { database },
  }) => {
    const db = database.db;
    const world = await formEcosystem(db);
    const create = (name: string, principal = world.lead.owner) =>
      createIntent({ db }, { principal, ecosystemId: world.ecosystemId, body: { name, description: '' } });

    const intent = await create('Age check');
    expect(intent).toMatchObject({ name: 'Age check', ecosystemId: world.ecosystemId });
    await expect(create('AGE CHECK')).rejects.toMatchObject({ statusCode: 409, code: 'INTENT_NAME_TAKEN' });
    await expect(create('Member intent', world.member.owner)).rejects.toMatchObject({ statusCode: 403 });

    const other = await create('Address check');
    await expect(
      updateIntent(
        { db },
        { principal: world.lead.owner, intentId: other.id, body: { name: 'age check', description: '' } },
      ),
    ).rejects.toMatchObject({ statusCode: 409, code: 'INTENT_NAME_TAKEN' });

    await deleteIntent({ db }, { principal: world.lead.owner, intentId: intent.id });
    expect(await create('Age check')).toMatchObject({ name: 'Age check' });
  });
});

describe('createIntentTemplate', () => {
  test('a verifier-role template is checked with the verifier: unknown, or owned by a non-member, is refused', async ({
    testDb: { database },
    bus,
  }) => {
    const { world, addTemplate: create } = await withIntent(database.db, bus);

    await expect(create(unique('vt-unknown'))).rejects.toMatchObject({
      statusCode: 400,
      code: 'VERIFICATION_TEMPLATE_NOT_FOUND',
    });
    await expect(create(verificationTemplateOf(world.outsider.orgId))).rejects.toMatchObject({
      statusCode: 400,
      code: 'TEMPLATE_OWNER_NOT_MEMBER',
    });
    const templateId = verificationTemplateOf(world.member.orgId);
    expect(await create(templateId)).toMatchObject({ templateId, role: 'verifier', orgId: null });
    await expect(create(verificationTemplateOf(world.lead.orgId))).rejects.toMatchObject({
      statusCode: 409,
      code: 'INTENT_TEMPLATE_EXISTS',
    });
  });
});

describe('resolveIntent', () => {
  /** An ecosystem with intent "Age check": an ecosystem-wide template and the lead's own override. */
  async function withTemplates(db: EcosystemDb, bus: InProcessBus) {
    const { world, intent, addTemplate } = await withIntent(db, bus);
    const shared = verificationTemplateOf(world.lead.orgId);
    const leadOwn = verificationTemplateOf(world.lead.orgId);
    await addTemplate(shared);
    await addTemplate(leadOwn, world.lead.orgId);
    return { world, intent, shared, leadOwn, addTemplate };
  }

  test("answers the organisation's override, else the ecosystem's template, with the trust policy", async ({
    testDb: { database },
    bus,
  }) => {
    const db = database.db;
    const { world, intent, shared, leadOwn } = await withTemplates(db, bus);
    const resolve = (orgId: string, name = 'Age check') =>
      resolveIntent({ db, enabled: true }, resolveFor(world, orgId, name));

    expect(await resolve(world.lead.orgId)).toMatchObject({
      intent: { id: intent.id },
      templateId: leadOwn,
      scope: 'organisation',
      notice: undefined,
    });
    const forMember = await resolve(world.member.orgId, 'age CHECK');
    expect(forMember).toMatchObject({ templateId: shared, scope: 'ecosystem' });
    expect(typeof forMember.trustPolicy).toBe('string');
  });

  test('refuses a non-member, an unknown intent, an unknown ecosystem and a disabled feature with their codes', async ({
    testDb: { database },
    bus,
  }) => {
    const db = database.db;
    const { world } = await withTemplates(db, bus);
    const resolve = (request: ReturnType<typeof resolveFor>, enabled = true) => resolveIntent({ db, enabled }, request);

    for (const orgId of [world.invited.orgId, world.outsider.orgId, unique('org-unknown')])
      await expect(resolve(resolveFor(world, orgId, 'Age check'))).rejects.toMatchObject({
        statusCode: 403,
        code: 'NOT_A_MEMBER',
      });
    await expect(resolve(resolveFor(world, world.member.orgId, 'Nothing'))).rejects.toMatchObject({
      statusCode: 404,
      code: 'INTENT_NOT_FOUND',
    });
    await expect(
      resolve({ ...resolveFor(world, world.member.orgId, 'Age check'), ecosystemId: crypto.randomUUID() }),
    ).rejects.toMatchObject({ statusCode: 404, code: 'ECOSYSTEM_NOT_FOUND' });
    await expect(resolve(resolveFor(world, world.member.orgId, 'Age check'), false)).rejects.toMatchObject({
      statusCode: 403,
      code: 'ECOSYSTEM_DISABLED',
    });
  });

  test("reuses a resolution until the cache's bound passes on its clock, then reads the change", async ({
    testDb: { database },
    bus,
  }) => {
    const db = database.db;
    const { world, shared, addTemplate } = await withTemplates(db, bus);
    const time = manualClock();
    // A bare cache: nothing empties it on writes here (LISTEN does that in the service), only its clock.
    const resolutions = new ResolutionCache<IntentResolution>({ ttlMs: 1000, maxEntries: 10, clock: time.clock });
    const resolve = () =>
      resolveIntent({ db, enabled: true, resolutions }, resolveFor(world, world.member.orgId, 'Age check'));

    expect((await resolve()).templateId).toBe(shared);
    const memberOwn = verificationTemplateOf(world.member.orgId);
    await addTemplate(memberOwn, world.member.orgId);

    time.advance(999);
    expect((await resolve()).templateId).toBe(shared);
    time.advance(1);
    expect(await resolve()).toMatchObject({ templateId: memberOwn, scope: 'organisation' });
  });
});
