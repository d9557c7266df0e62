import { describe, expect } from 'vitest';
import { listPresentationReads } from '../../src/use-cases/list-presentation-reads.js';
import { readPresentationResponse } from '../../src/use-cases/read-presentation-response.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { ORG, OTHER_ORG } from '../support/management.js';
import {
  createPidSession,
  useCaseTest as test,
  verifiedPidSession,
  type CreatedSession,
  type UseCaseWorld,
} from '../support/use-cases.js';

// Reading what a verified session proved (VERIFIER.md, Results; issue 15): only once
// verified, each read recorded with its reader; claims not declared `intent_to_retain`
// go when the read grace (60 s here) after the first read ends, every claim when the
// data's lifetime (a day here) ends.
const page = { page: 1, pageSize: 10, offset: 0 };

const read = (world: UseCaseWorld, session: CreatedSession, subject = 'reader') =>
  readPresentationResponse(world.deps, { orgId: ORG, sessionId: session.id, subject });

async function at<T>(world: UseCaseWorld, offsetMs: number, run: () => Promise<T>): Promise<T> {
  world.deps.clock.offsetMs = offsetMs;
  try {
    return await run();
  } finally {
    world.deps.clock.offsetMs = 0;
  }
}

describe('reading a presentation response', () => {
  test('nothing before the session is verified, and a refused read records nothing', async ({ world }) => {
    const session = await createPidSession(world);
    await expect(read(world, session)).rejects.toMatchObject({ statusCode: 409, code: 'PRESENTATION_NOT_VERIFIED' });
    await expect(
      readPresentationResponse(world.deps, { orgId: OTHER_ORG, sessionId: session.id, subject: 'reader' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await listPresentationReads(world.deps, { orgId: ORG, sessionId: session.id, page })).total).toBe(0);
  });

  test('every read is recorded with its reader; the read-once claims go when the grace after the first read ends', async ({
    world,
  }) => {
    const session = await verifiedPidSession(world);
    expect((await read(world, session, 'first-reader')).result.presentations[0]!.claims).toMatchObject({
      given_name: 'Erika',
    });
    await at(world, 30_000, () => read(world, session, 'second-reader'));
    const reads = await listPresentationReads(world.deps, { orgId: ORG, sessionId: session.id, page });
    expect(reads.rows.map((row) => row.subject)).toEqual(['second-reader', 'first-reader']);
    // No claim of this query is retained: past the grace there is nothing left to read.
    await expect(at(world, 61_000, () => read(world, session))).rejects.toMatchObject({
      statusCode: 410,
      code: 'PRESENTATION_DATA_EXPIRED',
    });
  });

  test('claims declared intent_to_retain outlive the grace, and go with the data’s lifetime', async ({ world }) => {
    const query = sdJwtQuery();
    query.credentials[0]!.claims = [
      { path: ['given_name'], intent_to_retain: true } as never,
      { path: ['family_name'] },
    ];
    const session = await verifiedPidSession(world, { dcql: query });
    await read(world, session);
    const claims = (await at(world, 61_000, () => read(world, session))).result.presentations[0]!.claims;
    expect(claims).toMatchObject({ given_name: 'Erika' });
    expect(claims).not.toHaveProperty('family_name');
    await expect(at(world, 86_401_000, () => read(world, session))).rejects.toMatchObject({
      statusCode: 410,
      code: 'PRESENTATION_DATA_EXPIRED',
    });
  });
});
