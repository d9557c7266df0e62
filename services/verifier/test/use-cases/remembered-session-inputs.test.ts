import { describe, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CreatePresentationBody } from '@tessera/contracts';
import { signingKeys } from '../../src/db/schema.js';
import { createSessionVerifiers } from '../../src/state/session-verifiers.js';
import { createSigningMaterials } from '../../src/state/signing-material-loader.js';
import { createPresentationSession } from '../../src/use-cases/create-presentation-session.js';
import { createVerifier } from '../../src/use-cases/create-verifier.js';
import { deleteVerifier } from '../../src/use-cases/delete-verifier.js';
import { updateVerifier } from '../../src/use-cases/update-verifier.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { ORG } from '../support/management.js';
import { useCaseTest as test, type UseCaseWorld } from '../support/use-cases.js';

// Issue 27, item 2: a session created from what the replica remembers (the verifier with its
// registration certificate, the signing material) is one statement, whose insert checks they
// are still what is stored. Whatever changed through another replica (here: straight in the
// database, or through the use cases on other deps) applies to the very next session.

/** The world's deps with a replica memory of their own, as `buildApp` wires it. */
function rememberingDeps(world: UseCaseWorld) {
  const { deps } = world;
  const materials = createSigningMaterials({
    db: deps.db,
    keyEncryptionKey: deps.keyEncryptionKey,
    ca: deps.ca,
    host: deps.host,
    clock: deps.clock,
  });
  return {
    ...deps,
    loadSigningMaterial: materials.load,
    rememberedSigningMaterial: materials.remembered,
    sessionVerifiers: createSessionVerifiers(),
  };
}

const body = (extra: Partial<CreatePresentationBody> = {}) =>
  ({ dcql: sdJwtQuery(), responseMode: 'direct_post', ...extra }) as CreatePresentationBody;

describe('sessions made from remembered inputs', () => {
  test('a verifier changed since the last session: the next session is made from the stored one', async ({ world }) => {
    const deps = rememberingDeps(world);
    const verifierId = 'remembered-metadata';
    await createVerifier(world.deps, { orgId: ORG, verifierId, clientMetadata: { client_name: 'Before' } });
    const first = await createPresentationSession(deps, { orgId: ORG, verifierId, body: body() });
    expect(first.session.clientMetadata).toMatchObject({ client_name: 'Before' });
    // Remembered now: an unchanged verifier keeps its metadata.
    const second = await createPresentationSession(deps, { orgId: ORG, verifierId, body: body() });
    expect(second.session.clientMetadata).toMatchObject({ client_name: 'Before' });
    await updateVerifier(world.deps, { orgId: ORG, verifierId, clientMetadata: { client_name: 'After' } });
    const third = await createPresentationSession(deps, { orgId: ORG, verifierId, body: body() });
    expect(third.session.clientMetadata).toMatchObject({ client_name: 'After' });
    // strictHaip turned on elsewhere: a non-HAIP session is refused, as with a fresh read.
    await updateVerifier(world.deps, {
      orgId: ORG,
      verifierId,
      clientMetadata: { client_name: 'After' },
      strictHaip: true,
    });
    await expect(createPresentationSession(deps, { orgId: ORG, verifierId, body: body() })).rejects.toMatchObject({
      statusCode: 400,
      code: 'NOT_HAIP_COMPLIANT',
    });
  });

  test('a verifier deleted since the last session: 404; one made again under its id: sessions again', async ({
    world,
  }) => {
    const deps = rememberingDeps(world);
    const verifierId = 'remembered-deleted';
    await createVerifier(world.deps, { orgId: ORG, verifierId });
    // Remembered, and over before the delete (a verifier with open sessions is not deleted).
    await createPresentationSession(deps, { orgId: ORG, verifierId, body: body({ expiresInSeconds: 1 }) });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await deleteVerifier(world.deps, { orgId: ORG, verifierId });
    await expect(createPresentationSession(deps, { orgId: ORG, verifierId, body: body() })).rejects.toMatchObject({
      statusCode: 404,
      code: 'VERIFIER_NOT_FOUND',
    });
    const again = await createVerifier(world.deps, { orgId: ORG, verifierId });
    const created = await createPresentationSession(deps, { orgId: ORG, verifierId, body: body() });
    expect(created.session.verifierRef).toBe(again.id);
  });

  test('a signing key replaced since the last session: the next session is signed with the new one', async ({
    world,
  }) => {
    const deps = rememberingDeps(world);
    const first = await createPresentationSession(deps, { orgId: ORG, verifierId: world.desk, body: body() });
    const second = await createPresentationSession(deps, { orgId: ORG, verifierId: world.desk, body: body() });
    expect(second.session.clientId).toBe(first.session.clientId);
    // Another replica's doing: the key is gone, so the next session makes (and uses) a new one.
    await world.deps.db.delete(signingKeys).where(and(eq(signingKeys.orgId, ORG), eq(signingKeys.keyType, 'P256')));
    const third = await createPresentationSession(deps, { orgId: ORG, verifierId: world.desk, body: body() });
    expect(third.session.clientId).toMatch(/^x509_hash:/);
    expect(third.session.clientId).not.toBe(first.session.clientId);
    const [stored] = await world.deps.db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.orgId, ORG), eq(signingKeys.keyType, 'P256')));
    expect(third.session.signingChain).toEqual(stored!.certificateChain);
  });
});
