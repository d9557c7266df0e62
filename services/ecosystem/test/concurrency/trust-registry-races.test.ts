import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ErrorCode, type TrustedEntityHistoryEntry } from '@tessera/contracts';
import { missingServer } from '@tessera/service-kit/testing';
import { readTrustListContent } from '../../src/db/trust-list-content.js';
import { makeCa } from '../support/certificates.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { expectStatus } from '../support/responses.js';
import { entitiesPath, issuerBody, registerEntity, sequenceOf } from '../support/trust-registry.js';
import type { World } from '../support/world.js';

// Registry changes of one ecosystem queue up on its registry lock: whatever runs at
// once, the history is one chain, the sequence rises by one per change with no gap or
// repeat, and a reader sees a list that matches its sequence. Needs a PostgreSQL server.
const N = 8;

async function historyOf(h: Harness, world: World, entityId: string): Promise<TrustedEntityHistoryEntry[]> {
  return (await h.call('GET', entitiesPath(world, `/${entityId}/history?pageSize=100`), { token: world.tokens.lead }))
    .body.data.data;
}

async function ecosystemSequences(h: Harness, ecosystemId: string): Promise<number[]> {
  const result = (await h.database.db.execute(
    sql`select sequence from ecosystem.trusted_entity_history where ecosystem_id = ${ecosystemId} order by sequence`,
  )) as unknown as Array<{ sequence: number }> | { rows: Array<{ sequence: number }> };
  return (Array.isArray(result) ? result : result.rows).map((row) => Number(row.sequence));
}

describe.skipIf(missingServer('postgres', 'trust registry races'))(
  'trust registry races: one history, a strictly increasing sequence',
  () => {
    test('status changes at once on one entity: one consistent chain of statuses, nothing after withdrawal', async ({
      harness: h,
      world,
    }) => {
      const entity = await registerEntity(
        h,
        world,
        issuerBody([(await makeCa('Contended CA')).pem], { name: 'Contended' }),
      );
      const wanted = Array.from(
        { length: N },
        (_, i) => (['suspended', 'active', 'suspended', 'withdrawn'] as const)[i % 4]!,
      );
      const results = await Promise.all(
        wanted.map((status, i) =>
          h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
            token: world.tokens.lead,
            body: { status, reason: `racer ${i}` },
          }),
        ),
      );
      for (const result of results) {
        if (result.status !== 200) expectStatus(result, 409, ErrorCode.ENTITY_WITHDRAWN);
      }
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);

      const history = await historyOf(h, world, entity.id);
      const changes = history.filter((e) => e.change === 'status-changed');
      // A chain: each change starts from the status the previous one set, beginning at active.
      let status = 'active';
      for (const change of changes) {
        expect(change.from).toEqual({ status });
        expect(change.to).not.toEqual({ status });
        status = (change.to as { status: string }).status;
      }
      expect(changes.findIndex((c) => (c.to as { status: string }).status === 'withdrawn')).toBe(changes.length - 1);
      const now = await h.call('GET', entitiesPath(world, `/${entity.id}`), { token: world.tokens.lead });
      expect(now.body.data.status).toBe(status);
      expect(now.body.data.status).toBe('withdrawn');
      // Exactly the committed changes advanced the sequence: consecutive, no gap or repeat.
      const sequences = history.map((e) => e.sequence);
      expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => sequences[0]! + i));
      expect(await sequenceOf(h, world.ecosystemId)).toBe(sequences.at(-1));
    });

    test('changes of different entities at once: every sequence value once, in commit order, equal to the stored sequence', async ({
      harness: h,
      world,
    }) => {
      const entities = await Promise.all(
        Array.from({ length: 4 }, async (_, i) =>
          registerEntity(h, world, issuerBody([(await makeCa(`Parallel CA ${i}`)).pem], { name: `Parallel ${i}` })),
        ),
      );
      const pems = await Promise.all(entities.map(async (_, i) => (await makeCa(`Parallel added CA ${i}`)).pem));
      const results = await Promise.all(
        entities.flatMap((entity, i) => [
          h.call('POST', entitiesPath(world, `/${entity.id}/status`), {
            token: world.tokens.lead,
            body: { status: 'suspended', reason: 'parallel' },
          }),
          h.call('PATCH', entitiesPath(world, `/${entity.id}`), {
            token: world.tokens.lead,
            body: { name: `Parallel ${i} renamed` },
          }),
          h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
            token: world.tokens.lead,
            body: { certificates: [{ pem: pems[i]! }] },
          }),
        ]),
      );
      for (const result of results) expect(result.status).toBeLessThan(300);
      const sequences = await ecosystemSequences(h, world.ecosystemId);
      expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
      expect(sequences.length).toBe(await sequenceOf(h, world.ecosystemId));
    });

    test('the same certificate registered for several entities at once: one 201, the others 400 naming the holder', async ({
      harness: h,
      world,
    }) => {
      const shared = (await makeCa('Raced CA')).pem;
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          h.call('POST', entitiesPath(world), {
            token: world.tokens.lead,
            body: issuerBody([shared], { name: `Racer ${i}` }),
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 201)) {
        expectStatus(loser, 400, ErrorCode.VALIDATION_FAILED);
        expect(loser.body.details[0].message).toContain('already a current certificate of trusted entity');
      }
    });

    test('certificates added while the list is read: every read matches its sequence', async ({
      harness: h,
      world,
    }) => {
      const entity = await registerEntity(
        h,
        world,
        issuerBody([(await makeCa('Growing CA')).pem], { name: 'Growing' }),
      );
      const base = await sequenceOf(h, world.ecosystemId);
      const pems = await Promise.all(Array.from({ length: N }, async (_, i) => (await makeCa(`Growing CA ${i}`)).pem));
      const reads: Array<{ sequence: number; certificates: number }> = [];
      let adding = true;
      const reader = (async () => {
        while (adding) {
          const content = (await readTrustListContent(h.database.db, world.ecosystemId))!;
          reads.push({
            sequence: content.sequence,
            certificates: content.entities.find((e) => e.id === entity.id)!.certificates.length,
          });
        }
      })();
      const adds = await Promise.all(
        pems.map((pem) =>
          h.call('POST', entitiesPath(world, `/${entity.id}/certificates`), {
            token: world.tokens.lead,
            body: { certificates: [{ pem }] },
          }),
        ),
      );
      adding = false;
      await reader;
      for (const add of adds) expectStatus(add, 201);
      expect(reads.length).toBeGreaterThan(1);
      // One certificate per change after the registration: a read at sequence s shows 1 + (s - base) certificates.
      for (const read of reads) expect(read.certificates).toBe(1 + (read.sequence - base));
      const final = (await readTrustListContent(h.database.db, world.ecosystemId))!;
      expect(final.sequence).toBe(base + N);
      expect(final.entities.find((e) => e.id === entity.id)!.certificates).toHaveLength(1 + N);
    });
  },
);
