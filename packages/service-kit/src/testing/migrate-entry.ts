import { spawnSync } from 'node:child_process';
import { createEmptyTestDatabase } from './databases.js';

/** A service's migrate entry run once on a fresh empty database, as the migrate init container runs it. */
export interface MigratedEmptyDatabase {
  url: string;
  /** The entry's exit code, and what it wrote to stderr (to show when it is not 0). */
  status: number | null;
  stderr: string;
  drop(): Promise<void>;
}

/**
 * Runs `node <entry>` (a service's `dist/migrate.js`) in production mode against a new
 * empty database of the test server, with the database settings and nothing else in its
 * environment: what the migrate init container's pod has. Needs a PostgreSQL server.
 */
export async function runMigrateEntryOnEmptyDatabase(entry: string): Promise<MigratedEmptyDatabase> {
  const empty = await createEmptyTestDatabase();
  const result = spawnSync(process.execPath, [entry], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', DATABASE_URL: empty.url },
    encoding: 'utf8',
    timeout: 30000,
  });
  return { url: empty.url, status: result.status, stderr: result.stderr, drop: empty.drop };
}
