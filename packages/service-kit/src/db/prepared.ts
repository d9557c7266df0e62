/**
 * A statement built and prepared once per database handle (Drizzle
 * `.prepare()`), for queries on hot paths: building the SQL text with the query
 * builder costs more than running it. `build` receives the handle and returns
 * the prepared query; later calls with the same handle get the same one. Called
 * with a transaction it prepares for that transaction (correct, just not reused).
 */
export function preparedFor<Handle extends object, Prepared>(
  build: (db: Handle) => Prepared,
): (db: Handle) => Prepared {
  const byHandle = new WeakMap<Handle, Prepared>();
  return (db) => {
    let prepared = byHandle.get(db);
    if (!prepared) {
      prepared = build(db);
      byHandle.set(db, prepared);
    }
    return prepared;
  };
}
