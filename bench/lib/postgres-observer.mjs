// What PostgreSQL spends on a measured window, for the per-operation figures of the
// benchmarks (issue 27 item 1): the CPU time of the cluster's processes, read from
// /proc, and the statements executed in the benchmark's database, counted by
// pg_stat_statements. Both are read as snapshots at the window's edges and
// subtracted; nothing is estimated.
//
// CPU: the postmaster is found as the parent of this observer's own backend; the
// cluster's CPU is the postmaster's own time, plus the time of its children that have
// exited and been reaped (its cutime/cstime: an autovacuum worker that came and went
// inside the window), plus the time of every child alive now (backends, WAL writer,
// checkpointer, background writer, …). The verifier's backends alone (pg_stat_activity
// rows of the benchmark's database with application_name `tessera`, which the kit
// sets) are reported beside it. Needs the server on this host and its /proc entries
// readable (the private cluster the benchmarks start, or a local BENCH_DATABASE_URL
// server when running as root or as its owner); otherwise CPU is not reported.
//
// Statements: pg_stat_statements (calls of every statement, utility statements such
// as BEGIN/COMMIT included) in the benchmark's database only; this observer's own
// queries run in the `postgres` database and are not counted. The private cluster
// loads the library (bench/lib/infra.mjs); a BENCH_DATABASE_URL server must have it in
// shared_preload_libraries, else statements are not reported.
import { readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';

/** [pid, ppid, user + system µs, reaped children's user + system µs] of a process; undefined when unreadable. */
function readStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = (index) => Number(fields[index]);
    // Fields (proc(5)), counted from `state` = 0: ppid 1, utime 11, stime 12, cutime 13, cstime 14.
    return {
      ppid: ticks(1),
      micros: ((ticks(11) + ticks(12)) * 1e6) / 100,
      childrenMicros: ((ticks(13) + ticks(14)) * 1e6) / 100,
    };
  } catch {
    return undefined;
  }
}

/** Every process on the host whose parent is `parentPid`. */
function childrenOf(parentPid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat?.ppid === parentPid) children.push({ pid: Number(entry), ...stat });
  }
  return children;
}

/**
 * Opens an observer of the server at `adminUrl` (a superuser in the `postgres` database)
 * for the benchmark database named in `databaseUrl`.
 * Returns { cpu: boolean, statements: boolean, notes: string[], snapshot(), close() }.
 */
export async function openPostgresObserver({ adminUrl, databaseUrl }) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'bench-observer' } });
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const notes = [];
  const [{ pid, dbid }] =
    await admin`select pg_backend_pid() as pid, (select oid from pg_database where datname = ${database}) as dbid`;
  const postmaster = readStat(pid)?.ppid;
  const cpu = postmaster !== undefined && readStat(postmaster) !== undefined;
  if (!cpu) notes.push('PostgreSQL CPU not reported: its processes are not readable in /proc on this host');
  let statements = false;
  try {
    await admin`create extension if not exists pg_stat_statements`;
    await admin`select 1 from pg_stat_statements limit 1`;
    statements = true;
  } catch (error) {
    notes.push(
      `statements not counted: pg_stat_statements is not loaded (${error.message}); add it to shared_preload_libraries`,
    );
  }

  /** Cluster CPU (µs) and the verifier's backends' CPU (µs) now. */
  async function readCpu() {
    if (!cpu) return { clusterMicros: Number.NaN, backends: undefined };
    const self = readStat(postmaster);
    let clusterMicros = self.micros + self.childrenMicros;
    for (const child of childrenOf(postmaster)) clusterMicros += child.micros;
    const backends =
      await admin`select pid from pg_stat_activity where datid = ${dbid} and application_name = 'tessera'`;
    return { clusterMicros, backends: new Map(backends.map((row) => [row.pid, readStat(row.pid)?.micros ?? 0])) };
  }

  async function readStatements() {
    if (!statements) return undefined;
    const rows =
      await admin`select queryid::text as id, calls::float8 as calls, query from pg_stat_statements where dbid = ${dbid}`;
    return new Map(rows.map((row) => [row.id, { calls: row.calls, query: row.query }]));
  }

  return {
    cpu,
    statements,
    notes,
    /** The counters now; `since(earlier)` gives what was spent between the two. */
    async snapshot() {
      const [cpuNow, statementsNow] = [await readCpu(), await readStatements()];
      return { ...cpuNow, statements: statementsNow };
    },
    close: () => admin.end(),
  };
}

/**
 * What was spent between two snapshots: { clusterMicros, backendsMicros, statements,
 * byStatement: [{ query, calls }] (most called first) }. A backend that opened inside
 * the window counts from zero, one that closed inside it is lost to the backends'
 * figure (not to the cluster's, which reaps it).
 */
export function spentBetween(before, after) {
  const byStatement = [];
  let statements = Number.NaN;
  if (before.statements && after.statements) {
    statements = 0;
    for (const [id, { calls, query }] of after.statements) {
      const spent = calls - (before.statements.get(id)?.calls ?? 0);
      if (spent <= 0) continue;
      statements += spent;
      byStatement.push({ query, calls: spent });
    }
    byStatement.sort((a, b) => b.calls - a.calls);
  }
  let backendsMicros = Number.NaN;
  if (before.backends && after.backends) {
    backendsMicros = 0;
    for (const [pid, micros] of after.backends) backendsMicros += micros - (before.backends.get(pid) ?? 0);
  }
  return {
    clusterMicros: after.clusterMicros - before.clusterMicros,
    backendsMicros,
    statements,
    byStatement,
  };
}
