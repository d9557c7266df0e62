import { SpanKind, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { Sql } from 'postgres';
import { markFailed, serviceTracer } from './service-tracer.js';
import { summariseStatement, type StatementSummary } from './statement-summary.js';

type Unsafe = Sql['unsafe'];
type PendingQuery = ReturnType<Unsafe>;

/** The settling functions postgres.js gives each query (own fields of its `Query`): every outcome goes through one. */
interface SettlingQuery {
  resolve: (value: unknown) => unknown;
  reject: (reason: unknown) => unknown;
}

/**
 * The postgres.js client with a CLIENT span per statement, named by its operation and
 * table (`SELECT intents`): Drizzle's queries, raw statements and those inside
 * transactions all go through `unsafe`, so that is the one place wrapped. Never the
 * statement's text or its values. Without a tracer the client itself is returned.
 *
 * The span starts when the statement is issued and ends when postgres.js settles the
 * query (its `resolve` or `reject`, through which rows, errors, cancellations and a closed
 * connection all pass): no promise of our own per statement, and the query stays the lazy
 * promise it was (`.values()` and friends still apply before it runs).
 */
export function traceSqlClient<T extends Sql>(client: T, service: string): T {
  const tracer = serviceTracer(service);
  return tracer ? withTracedStatements(client, tracer) : client;
}

function withTracedStatements<T extends Sql>(client: T, tracer: Tracer): T {
  // Drizzle reads `unsafe` once per statement: the wrapped and bound functions are made
  // once per client (and per transaction's client), not on every property read.
  const functions = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, property, receiver) {
      const known = functions.get(property);
      if (known !== undefined) return known;
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      let wrapped: unknown;
      if (property === 'unsafe') wrapped = tracedUnsafe(value as Unsafe, target, tracer);
      else if (property === 'begin' || property === 'savepoint') {
        // A transaction's (or savepoint's) own client issues its statements: wrap it too.
        wrapped = (...args: unknown[]) => {
          const callback = args.at(-1) as (tx: Sql) => unknown;
          return (value as (...a: unknown[]) => unknown).apply(target, [
            ...args.slice(0, -1),
            (tx: Sql) => callback(withTracedStatements(tx, tracer)),
          ]);
        };
      } else wrapped = (value as (...a: unknown[]) => unknown).bind(target);
      functions.set(property, wrapped);
      return wrapped;
    },
  });
}

/** A statement's span options, made once per statement text (summaries are cached by text). */
const spanOptionsBySummary = new WeakMap<StatementSummary, SpanOptions>();

function spanOptionsOf(summary: StatementSummary): SpanOptions {
  let options = spanOptionsBySummary.get(summary);
  if (!options) {
    options = {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': summary.operation,
        'db.query.summary': summary.name,
        ...(summary.table ? { 'db.collection.name': summary.table } : {}),
      },
    };
    spanOptionsBySummary.set(summary, options);
  }
  return options;
}

function tracedUnsafe(unsafe: Unsafe, target: Sql, tracer: Tracer): Unsafe {
  return ((text: string, ...rest: unknown[]) => {
    const query = (unsafe as (...a: unknown[]) => PendingQuery).call(target, text, ...rest);
    const summary = summariseStatement(text);
    endWhenQuerySettles(tracer.startSpan(summary.name, spanOptionsOf(summary)), query as unknown as SettlingQuery);
    return query;
  }) as Unsafe;
}

function endWhenQuerySettles(span: Span, query: SettlingQuery): void {
  const { resolve, reject } = query;
  query.resolve = (value) => {
    span.end();
    return resolve(value);
  };
  query.reject = (reason) => {
    markFailed(span, reason);
    span.end();
    return reject(reason);
  };
}
