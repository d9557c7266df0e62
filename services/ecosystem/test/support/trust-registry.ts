import { eq, sql } from 'drizzle-orm';
import type { TrustedEntity } from '@tessera/contracts';
import type { CallResult } from '@tessera/service-kit/testing';
import { ecosystems } from '../../src/db/schema.js';
import { readTrustListContent } from '../../src/db/trust-list-content.js';
import type { Harness } from './harness.js';
import { expectStatus, type Enveloped } from './responses.js';
import type { World } from './world.js';

export const PID_VCT = 'urn:eudi:pid:1';
export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';

export const entitiesPath = (world: World, rest = '') => `/v1/ecosystem/${world.ecosystemId}/trusted-entities${rest}`;

/** A valid registration body of an issuer allowed the PID, with the given certificates. */
export function issuerBody(pems: string[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'PID Issuer',
    role: 'issuer',
    allowedCredentialTypes: [{ format: 'dc+sd-jwt', vct: PID_VCT }],
    certificates: pems.map((pem) => ({ pem })),
    ...overrides,
  };
}

/** Registers an entity as the world's lead and answers it (fails the test unless 201). */
export async function registerEntity(h: Harness, world: World, body: Record<string, unknown>): Promise<TrustedEntity> {
  const created: CallResult<Enveloped<TrustedEntity>> = await h.call('POST', entitiesPath(world), {
    token: world.tokens.lead,
    body,
  });
  expectStatus(created, 201);
  return created.body.data;
}

/** The ecosystem's trust-list sequence as stored. */
export async function sequenceOf(h: Harness, ecosystemId: string): Promise<number> {
  return (await readTrustListContent(h.database.db, ecosystemId))!.sequence;
}

/**
 * A committed registry change as a reader of the list sees it, and nothing else: the
 * ecosystem's trust-list sequence moves on by one while its entities stay as they are.
 */
export async function advanceTrustListSequence(h: Harness, ecosystemId: string): Promise<void> {
  await h.database.db
    .update(ecosystems)
    .set({ trustListSequence: sql`${ecosystems.trustListSequence} + 1` })
    .where(eq(ecosystems.id, ecosystemId));
}
