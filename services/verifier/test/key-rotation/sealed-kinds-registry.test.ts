import { describe, expect } from 'vitest';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import * as sealingContexts from '../../src/crypto/sealing-contexts.js';
import { dataKeyContext } from '../../src/crypto/sealing-contexts.js';
// The registry and its queries are the subject (src/db), over real PostgreSQL.
import { listSealedValues, SEALED_KINDS } from '../../src/db/sealed-kinds.js';
import { dataKeys } from '../../src/db/schema.js';
import { describeUnopenedValues, resealSealedValues } from '../../src/use-cases/reseal-sealed-values.js';
import { databaseTest as test } from '../support/fixtures.js';

// The registry of sealed kinds (db/sealed-kinds.ts) is the one list the start-time
// re-sealing walks: a kind missing from it would stop opening once the previous key is
// removed. Every AAD of crypto/sealing-contexts.ts sealed with KEY_ENCRYPTION_KEY must
// be some entry's; and the walk, stopped half-way, is finished by the next start.

/** Contexts sealed with an organisation's data key, not KEY_ENCRYPTION_KEY: rotation re-wraps their key. */
const SEALED_WITH_DATA_KEYS = new Set(['presentationDataContext']);

/** The name part of an AAD (`webhook-secret:<id>` → `webhook-secret`). */
const nameOf = (context: string) => context.split(':')[0];

describe('the registry of sealed kinds', () => {
  test('every context sealed with KEY_ENCRYPTION_KEY has its entry (a new kind must be registered)', () => {
    const registered = new Set(SEALED_KINDS.map((kind) => nameOf(kind.context(['id-1', 'P256']))));
    const declared = Object.entries(sealingContexts)
      .filter(([name]) => !SEALED_WITH_DATA_KEYS.has(name))
      .map(([name, value]) => [
        name,
        typeof value === 'function' ? (value as (...args: string[]) => string)('id-1', 'P256') : String(value),
      ]);
    expect(declared.length).toBeGreaterThanOrEqual(7);
    for (const [name, context] of declared)
      expect(registered, `${name} is not in SEALED_KINDS`).toContain(nameOf(context!));
  });

  test('a walk stopped half-way (a crash) is finished by the next one, which writes only what is left', async ({
    testDb,
  }) => {
    const db = testDb.database.db;
    const k1Text = generateKeyEncryptionKey();
    const k1 = new KeyEncryptionKey(k1Text);
    const k2Text = generateKeyEncryptionKey();
    const orgs = ['org-a', 'org-b', 'org-c', 'org-d', 'org-e'];
    for (const orgId of orgs)
      await db.insert(dataKeys).values({
        orgId,
        wrappedKey: k1.sealBytes(Buffer.alloc(32, orgId.length), dataKeyContext(orgId)),
      });
    const kinds = SEALED_KINDS.filter((kind) => kind.kind === 'data-key');
    // The replica dies while re-sealing the third value (pages of two rows).
    let calls = 0;
    const dying = new KeyEncryptionKey(k2Text, [k1Text]);
    const crash = new Error('the replica stopped');
    dying.resealWithCurrent = function (sealed, context) {
      if (++calls === 3) throw crash;
      return KeyEncryptionKey.prototype.resealWithCurrent.call(this, sealed, context);
    };
    await expect(resealSealedValues({ db, keyEncryptionKey: dying }, { batchSize: 2, kinds })).rejects.toBe(crash);

    // Without the previous key the two values still under it hold the start, named and counted.
    const k2Alone = new KeyEncryptionKey(k2Text);
    const counted = await resealSealedValues({ db, keyEncryptionKey: k2Alone }, { batchSize: 2, kinds });
    expect(counted).toEqual({ resealed: {}, unopened: { 'data-key': 3 } });
    expect(describeUnopenedValues(counted, false)?.state).toBe('previous-key-needed: data-key=3');

    // The next start with the previous key re-seals the three left, not the two already done.
    const restarted = new KeyEncryptionKey(k2Text, [k1Text]);
    expect(await resealSealedValues({ db, keyEncryptionKey: restarted }, { batchSize: 2, kinds })).toEqual({
      resealed: { 'data-key': 3 },
      unopened: {},
    });
    const stored = await listSealedValues(db, kinds[0]!, { limit: 10 });
    expect(stored.map((row) => row.key[0])).toEqual(orgs);
    for (const row of stored)
      expect(k2Alone.openBytes(row.sealed, dataKeyContext(row.key[0]!))).toEqual(Buffer.alloc(32, row.key[0]!.length));
  });
});
