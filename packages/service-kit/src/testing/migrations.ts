import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A copy of a drizzle-kit migrations folder whose journal ends at the migration
 * tagged `lastTag` (e.g. `0008_presentation-reads`): migrating with it leaves a
 * database at that older schema, as a release that has not run the later migrations
 * would. Migrating again with the real folder then applies the rest, which is how a
 * test proves a migration's data backfill.
 */
export function migrationsFolderUpTo(migrationsFolder: string, lastTag: string): string {
  const journalPath = join(migrationsFolder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration tagged ${lastTag} in ${journalPath}`);
  const copy = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(migrationsFolder, copy, { recursive: true });
  writeFileSync(
    join(copy, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }, null, 2),
  );
  return copy;
}
