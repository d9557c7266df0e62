import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { captureLogger } from '../src/testing/index.js';

// A failed query's error carries its bound values (Drizzle appends them to the
// message and keeps them as `params`): the logger keeps the query, drops the values.
describe('logged errors of failed queries', () => {
  it('keep the query text and drop the bound values, in the error and its causes', () => {
    const log = captureLogger('kit-test', 'trace');
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      parameters: ['Erika', '1961-07-29'],
      code: '23505',
    });
    const failed = new DrizzleQueryError(
      'insert into "results" ("claims") values ($1)',
      ['{"given_name":"Erika"}', 'XK1234'],
      driverError,
    );
    log.logger.error({ err: failed }, 'request failed');
    log.logger.trace({ err: new Error('wrapped', { cause: failed }) }, 'wrapped failure');
    const text = log.text();
    expect(text).toContain('insert into \\"results\\"');
    expect(text).toContain('duplicate key value');
    for (const value of ['Erika', 'XK1234', '1961-07-29']) expect(text).not.toContain(value);
    expect(log.lines()).toHaveLength(2);
  });

  it('leave other errors as pino writes them', () => {
    const log = captureLogger('kit-test', 'trace');
    log.logger.error({ err: Object.assign(new Error('boom'), { code: 'E_BOOM', detail: 'kept' }) }, 'failed');
    const [line] = log.lines().map((entry) => JSON.parse(entry) as { err: Record<string, unknown> });
    expect(line!.err).toMatchObject({ type: 'Error', message: 'boom', code: 'E_BOOM', detail: 'kept' });
  });
});
