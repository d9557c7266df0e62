import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@tessera/service-kit';
import { missingServer, runMigrateEntryOnEmptyDatabase } from '@tessera/service-kit/testing';
import { schema } from '../../src/db/schema.js';
import { registerOrganisation } from '../../src/use-cases/register-organisation.js';
import { ownerOf } from '../support/use-cases.js';

const MIGRATE = fileURLToPath(new URL('../../dist/migrate.js', import.meta.url));

describe.skipIf(missingServer('postgres', 'ecosystem migrate entry'))('ecosystem migrate entry', () => {
  it('migrates an empty database in production with only the database settings (no OIDC, no trust-list CA), and exits 0', async () => {
    const migrated = await runMigrateEntryOnEmptyDatabase(MIGRATE);
    try {
      expect(migrated.status, migrated.stderr).toBe(0);
      const database = await openDatabase({ schema, url: migrated.url });
      // The schema is there: an operation can use it.
      const registered = await registerOrganisation(
        { db: database.db },
        { principal: ownerOf('org-migrated'), orgId: 'org-migrated', name: 'Migrated' },
      );
      expect(registered.created).toBe(true);
      await database.close();
    } finally {
      await migrated.drop();
    }
  });
});
