import { SpanKind, type Tracer } from '@opentelemetry/api';
import type { Sql } from 'postgres';
import { endWhenSettled, serviceTracer } from './service-tracer.js';
import { summariseStatement } from './statement-summary.js';

type Unsafe = Sql['unsafe'];
type PendingQuery = ReturnType<Unsafe>;

/**
 * The postgres.js client with a CLIENT span per statement, named by its operation and
 * table (`SELECT intents`): Drizzle's queries, raw statements and those inside
 * transactions all go through `unsafe`, so that is the one place wrapped. Never the
 * statement's text or its values. Without a tracer the client itself is returned.
 *
 * postgres.js queries are lazy promises that run when first awaited; the span starts
 * when the statement is issued and ends when it settles (the wrapped `then` forwards to
 * the query's own, so `.values()` and friends still apply before it runs).
 */
export function traceSqlClient<T extends Sql>(client: T, service: string): T {
  const tracer = serviceTracer(service);
  return tracer ? withTracedStatements(client, tracer) : client;
}

function withTracedStatements<T extends Sql>(client: T, tracer: Tracer): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'unsafe') return tracedUnsafe(value as Unsafe, target, tracer);
      if (property === 'begin' || property === 'savepoint') {
        // A transaction's (or savepoint's) own client issues its statements: wrap it too.
        return (...args: unknown[]) => {
          const callback = args.at(-1) as (tx: Sql) => unknown;
          return (value as (...a: unknown[]) => unknown).apply(target, [
            ...args.slice(0, -1),
            (tx: Sql) => callback(withTracedStatements(tx, tracer)),
          ]);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function tracedUnsafe(unsafe: Unsafe, target: Sql, tracer: Tracer): Unsafe {
  return ((text: string, ...rest: unknown[]) => {
    const query = (unsafe as (...a: unknown[]) => PendingQuery).call(target, text, ...rest);
    const summary = summariseStatement(text);
    const span = tracer.startSpan(summary.name, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': summary.operation,
        'db.query.summary': summary.name,
        ...(summary.table ? { 'db.collection.name': summary.table } : {}),
      },
    });
    const then = query.then;
    let settled: Promise<unknown> | undefined;
    // Reflect's form returns a boolean, not the (thenable) query, which would read as a floating promise.
    Reflect.defineProperty(query, 'then', {
      configurable: true,
      value(onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) {
        if (settled === undefined) {
          settled = endWhenSettled(span, then.call(query, (rows: unknown) => rows) as Promise<unknown>);
        }
        return settled.then(onFulfilled, onRejected);
      },
    });
    return query;
  }) as Unsafe;
}
