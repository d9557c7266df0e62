import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@tessera/service-kit';
import { missingServer, runMigrateEntryOnEmptyDatabase } from '@tessera/service-kit/testing';
import { schema } from '../../src/db/schema.js';
import { storedStatusLists } from '../support/stored-lists.js';

const MIGRATE = fileURLToPath(new URL('../../dist/migrate.js', import.meta.url));

describe.skipIf(missingServer('postgres', 'status list migrate entry'))('status list migrate entry', () => {
  it('migrates an empty database in production with only the database settings (no API_KEY), and exits 0', async () => {
    const migrated = await runMigrateEntryOnEmptyDatabase(MIGRATE);
    try {
      expect(migrated.status, migrated.stderr).toBe(0);
      const database = await openDatabase({ schema, url: migrated.url });
      // The table exists (and is empty): a query of it succeeds.
      expect(await storedStatusLists(database)).toEqual([]);
      await database.close();
    } finally {
      await migrated.drop();
    }
  });
});
