import { describe, expect } from 'vitest';
import { pageWindow } from '@tessera/service-kit';
import { createVerifier } from '../../src/use-cases/create-verifier.js';
import { deleteVerifier } from '../../src/use-cases/delete-verifier.js';
import { getVerifier } from '../../src/use-cases/get-verifier.js';
import { listVerifiers } from '../../src/use-cases/list-verifiers.js';
import { updateVerifier } from '../../src/use-cases/update-verifier.js';
import { ORG as SESSIONS_ORG, OTHER_ORG } from '../support/management.js';
import { createPidSession, useCaseTest as test } from '../support/use-cases.js';

// Verifiers of an organisation (VERIFIER.md, Verifiers): created, read, listed,
// updated and deleted through their use cases, on a real database. Sessions are
// created for SESSIONS_ORG, the organisation of the support's world.
const ORG = 'org-verifier-cases';
const firstPage = pageWindow({ pageNumber: 1, pageSize: 10 });

describe('verifier use cases', () => {
  test('a verifier is created, read, listed, has its metadata replaced and is deleted', async ({ world }) => {
    const { deps } = world;
    const created = await createVerifier(deps, {
      orgId: ORG,
      verifierId: 'front-desk',
      clientMetadata: { client_name: 'Front desk' },
    });
    expect(created).toMatchObject({
      orgId: ORG,
      verifierId: 'front-desk',
      clientMetadata: { client_name: 'Front desk' },
    });
    expect(await getVerifier(deps, { orgId: ORG, verifierId: 'front-desk' })).toEqual(created);
    await createVerifier(deps, { orgId: ORG, verifierId: 'back-office' });
    const listed = await listVerifiers(deps, { orgId: ORG, page: firstPage });
    expect(listed.total).toBe(2);
    expect(listed.rows.map((row) => row.verifierId).sort()).toEqual(['back-office', 'front-desk']);

    // Metadata not given is kept (a PATCH of a setting); null clears it (a PUT without it).
    const kept = await updateVerifier(deps, { orgId: ORG, verifierId: 'front-desk', strictHaip: true });
    expect(kept).toMatchObject({ clientMetadata: { client_name: 'Front desk' }, strictHaip: true });
    deps.clock.offsetMs = 60_000;
    const updated = await updateVerifier(deps, { orgId: ORG, verifierId: 'front-desk', clientMetadata: null });
    deps.clock.offsetMs = 0;
    // The update time is the clock's.
    expect(updated.clientMetadata).toBeNull();
    expect(updated.strictHaip).toBe(true);
    expect(updated.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime() + 50_000);

    expect(await deleteVerifier(deps, { orgId: ORG, verifierId: 'front-desk' })).toMatchObject({ id: created.id });
    await expect(getVerifier(deps, { orgId: ORG, verifierId: 'front-desk' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'VERIFIER_NOT_FOUND',
    });
  });

  test('a verifierId is unique in its organisation only', async ({ world }) => {
    await createVerifier(world.deps, { orgId: ORG, verifierId: 'twice' });
    await expect(createVerifier(world.deps, { orgId: ORG, verifierId: 'twice' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'VERIFIER_EXISTS',
    });
    expect(await createVerifier(world.deps, { orgId: OTHER_ORG, verifierId: 'twice' })).toMatchObject({
      orgId: OTHER_ORG,
    });
  });

  test("another organisation's verifier reads as missing", async ({ world }) => {
    await createVerifier(world.deps, { orgId: ORG, verifierId: 'private' });
    const others = { orgId: 'org-someone-else', verifierId: 'private' };
    await expect(getVerifier(world.deps, others)).rejects.toMatchObject({ statusCode: 404 });
    await expect(updateVerifier(world.deps, others)).rejects.toMatchObject({ statusCode: 404 });
    await expect(deleteVerifier(world.deps, others)).rejects.toMatchObject({ statusCode: 404 });
    expect((await listVerifiers(world.deps, { orgId: 'org-someone-else', page: firstPage })).total).toBe(0);
  });

  test('the verifierId never changes: a body naming another is refused', async ({ world }) => {
    await createVerifier(world.deps, { orgId: ORG, verifierId: 'fixed' });
    await expect(
      updateVerifier(world.deps, { orgId: ORG, verifierId: 'fixed', bodyVerifierId: 'renamed' }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'VERIFIER_ID_IMMUTABLE' });
  });

  test('a verifier with an open session is in use until the session expires', async ({ world }) => {
    const { deps } = world;
    const kiosk = await createVerifier(deps, { orgId: SESSIONS_ORG, verifierId: 'kiosk' });
    await createPidSession(world, {}, kiosk.verifierId);
    const inUse = { orgId: SESSIONS_ORG, verifierId: kiosk.verifierId };
    await expect(deleteVerifier(deps, inUse)).rejects.toMatchObject({ statusCode: 409, code: 'VERIFIER_IN_USE' });
    deps.clock.offsetMs = (deps.sessionTtlSeconds + 1) * 1000;
    try {
      expect(await deleteVerifier(deps, inUse)).toMatchObject({ id: kiosk.id });
    } finally {
      deps.clock.offsetMs = 0;
    }
  });
});
