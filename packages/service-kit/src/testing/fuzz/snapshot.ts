import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { rowsOf } from '../../db/rows-of.js';

/** Every row of every table in a Postgres schema, in a stable order: to prove a request changed nothing. */
export async function snapshotSchema(
  database: Database<Record<string, unknown>>,
  schemaName: string,
): Promise<Record<string, unknown[]>> {
  const tables = rowsOf(
    await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = ${schemaName} order by table_name`,
    ),
  ) as Array<{ table_name: string }>;
  const snapshot: Record<string, unknown[]> = {};
  for (const { table_name: table } of tables) {
    snapshot[table] = rowsOf(await database.db.execute(sql.raw(`select * from "${schemaName}"."${table}" order by 1`)));
  }
  return snapshot;
}
