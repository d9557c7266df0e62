import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@tessera/service-kit';
import { createEmptyTestDatabase, missingServer } from '@tessera/service-kit/testing';
import { schema } from '../../src/db/schema.js';
import { storedStatusLists } from '../support/stored-lists.js';

const MIGRATE = fileURLToPath(new URL('../../dist/migrate.js', import.meta.url));

// The migrate init container's pod has the database settings and nothing else.
describe.skipIf(missingServer('postgres', 'status list migrate entry'))('status list migrate entry', () => {
  it('migrates an empty database in production with only the database settings (no API_KEY), and exits 0', async () => {
    const empty = await createEmptyTestDatabase();
    try {
      const result = spawnSync(process.execPath, [MIGRATE], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATABASE_URL: empty.url },
        encoding: 'utf8',
        timeout: 30000,
      });
      expect(result.status, result.stderr).toBe(0);
      const database = await openDatabase({ schema, url: empty.url });
      // The table exists (and is empty): a query of it succeeds.
      expect(await storedStatusLists(database)).toEqual([]);
      await database.close();
    } finally {
      await empty.drop();
    }
  });
});
