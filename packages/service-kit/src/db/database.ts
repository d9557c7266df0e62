import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import postgres from 'postgres';
import { PGlite } from '@electric-sql/pglite';
import { postgresSslOptions } from './postgres-tls.js';
import type { PoolObserver } from '../metrics/database-metrics.js';
import { traceSqlClient } from '../tracing/db-tracing.js';

/** A Drizzle database over either driver; queries take this or a transaction. */
export type Db<TSchema extends Record<string, unknown> = Record<string, never>> = PgDatabase<PgQueryResultHKT, TSchema>;
/** What query functions accept: the database or a transaction of it. */
export type DbOrTx<TSchema extends Record<string, unknown> = Record<string, never>> = Pick<
  Db<TSchema>,
  'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction' | 'query' | 'selectDistinct' | '$count'
>;

export interface Database<TSchema extends Record<string, unknown>> {
  db: Db<TSchema>;
  /** `postgres` for a server (DATABASE_URL), `pglite` for the embedded default. */
  kind: 'postgres' | 'pglite';
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /**
   * LISTENs on `channel`: `onNotify` runs for each notification (delivered when the
   * notifying transaction commits), `onListen` each time listening (re)starts — after
   * a reconnect, notifications sent meanwhile are lost, so callers resynchronise there.
   * Resolves with a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions<TSchema extends Record<string, unknown>> {
  schema: TSchema;
  /** A postgres:// URL; when absent an embedded PGlite is used. */
  url?: string;
  /** DATABASE_CA_FILE: PEM CA the server's certificate must chain to (see `postgresSslOptions`). */
  caFile?: string;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string;
  poolSize?: number;
  connectTimeoutSeconds?: number;
  /** Per-statement timeout, so a stuck query fails instead of holding a request. */
  statementTimeoutMs?: number;
  /** Told when a query or transaction takes and gives back a pool connection (metrics). */
  pool?: PoolObserver;
  /** The service whose tracer records a span per statement (when it traces). */
  service?: string;
}

/** Opens a Drizzle database: postgres-js when `url` is given, PGlite otherwise. */
export async function openDatabase<TSchema extends Record<string, unknown>>(
  options: OpenDatabaseOptions<TSchema>,
): Promise<Database<TSchema>> {
  if (options.url) {
    const ssl = postgresSslOptions(options.url, options.caFile);
    const client = postgres(options.url, {
      ...(ssl ? { ssl } : {}),
      max: options.poolSize ?? 10,
      connect_timeout: options.connectTimeoutSeconds ?? 3,
      idle_timeout: 60,
      onnotice: () => {},
      connection: { statement_timeout: options.statementTimeoutMs ?? 15000, application_name: 'tessera' },
    });
    const traced = options.service ? traceSqlClient(client, options.service) : client;
    const db = drizzlePostgres(options.pool ? observePool(traced, options.pool) : traced, {
      schema: options.schema,
    }) as unknown as Db<TSchema>;
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await client`select 1`;
      },
      listen: async (channel, onNotify, onListen) => {
        const { unlisten } = await client.listen(channel, (payload) => onNotify(payload), onListen);
        return unlisten;
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite(options.dataDir);
  await client.waitReady;
  const db = drizzlePglite(client, { schema: options.schema }) as unknown as Db<TSchema>;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await client.listen(channel, (payload) => onNotify(payload));
      onListen();
      return unlisten;
    },
    close: () => client.close(),
  };
}

/**
 * The client Drizzle runs on, with what it has in flight reported to `observer`:
 * postgres.js keeps its pool to itself, so the queries Drizzle sends (`unsafe`) and the
 * transactions it opens (`begin`, which hold a connection throughout) are counted here.
 */
function observePool(client: postgres.Sql, observer: PoolObserver): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (...args: Parameters<postgres.Sql['unsafe']>) => {
          const query = target.unsafe(...args);
          observer.started();
          // `then` sends the query (Drizzle awaits it anyway); `.values()` may still be
          // chained after this, as postgres.js sends on the next tick.
          query.then(observer.finished, observer.finished);
          return query;
        };
      }
      if (property === 'begin') {
        return async (...args: unknown[]) => {
          observer.started();
          try {
            return await (target.begin as (...a: unknown[]) => Promise<unknown>)(...args);
          } finally {
            observer.finished();
          }
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
