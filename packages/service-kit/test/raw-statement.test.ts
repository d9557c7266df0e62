import { describe, expect, it } from 'vitest';
import { openDatabase, preparedFor, runRawStatement, type Database } from '../src/index.js';
import { missingServer, testBackends } from '../src/testing/index.js';
import { sql } from 'drizzle-orm';

// Hot statements run on the driver itself: the same text and parameters must give
// the same rows on postgres-js, on PGlite, and inside a Drizzle transaction.
const STATEMENT = 'select $1::int + 1 as next, $2::jsonb as doc, $3::text is null as missing';

async function expectSameAnswers(database: Database<Record<string, never>>) {
  const params = [41, JSON.stringify({ a: [1, 'two'] }), null];
  expect(await runRawStatement(database.db, STATEMENT, params)).toEqual([
    { next: 42, doc: { a: [1, 'two'] }, missing: true },
  ]);
  const inTransaction = await database.db.transaction((tx) => runRawStatement(tx, STATEMENT, params));
  expect(inTransaction).toEqual([{ next: 42, doc: { a: [1, 'two'] }, missing: true }]);
  // A value is a parameter, never SQL.
  expect(await runRawStatement(database.db, 'select $1::text as value', ["'); drop table x; --"])).toEqual([
    { value: "'); drop table x; --" },
  ]);
}

describe('runRawStatement', () => {
  it('answers rows on the embedded PGlite, also inside a transaction', async () => {
    const database = await openDatabase({ schema: {} });
    try {
      await expectSameAnswers(database);
    } finally {
      await database.close();
    }
  });

  describe.skipIf(missingServer('postgres', 'raw statements on postgres-js'))('on a PostgreSQL server', () => {
    it('answers rows through postgres-js, also inside a transaction', async () => {
      const database = await openDatabase({ schema: {}, url: testBackends().postgres.adminUrl! });
      try {
        await expectSameAnswers(database);
      } finally {
        await database.close();
      }
    });
  });
});

describe('preparedFor', () => {
  it('builds once per database handle and reuses it', async () => {
    const database = await openDatabase({ schema: {} });
    try {
      let builds = 0;
      const statement = preparedFor((db: Database<Record<string, never>>['db']) => {
        builds += 1;
        return { run: () => db.execute(sql`select 1`) };
      });
      expect(statement(database.db)).toBe(statement(database.db));
      await statement(database.db).run();
      expect(builds).toBe(1);
    } finally {
      await database.close();
    }
  });
});
