import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { readTrustListContent } from '../../src/db/trust-list-content.js';
import { ecosystemTest as test } from '../support/fixtures.js';
import { ORG } from '../support/world.js';

describe('readTrustListContent', () => {
  test('an unknown ecosystem has no content', async ({ harness: h }) => {
    expect(await readTrustListContent(h.database.db, randomUUID())).toBeUndefined();
  });

  test('a new ecosystem: sequence 0 since its creation, the lead as operator, organisation policy, not public, no entities', async ({ harness: h, world }) => {
    const content = await readTrustListContent(h.database.db, world.ecosystemId);
    expect(content).toMatchObject({
      ecosystem: { id: world.ecosystemId, name: 'Health Data Space' },
      lead: { orgId: ORG.lead, name: 'lead organisation' },
      sequence: 0,
      public: false,
      policy: 'organisation',
      entities: [],
    });
    expect(content!.sequenceChangedAt).toBeInstanceOf(Date);
  });
});
