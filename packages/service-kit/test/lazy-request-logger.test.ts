import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createLazyRequestLogger } from '../src/lazy-request-logger.js';

/** A parent logger that records the children it makes and the lines they log. */
function recordingParent(level: 'warn' | 'info') {
  const order = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const children: Array<Record<string, unknown>> = [];
  const lines: Array<{ level: string; bindings: Record<string, unknown>; args: unknown[] }> = [];
  const make = (bindings: Record<string, unknown>): FastifyBaseLogger & { isLevelEnabled(level: string): boolean } => {
    const logger = {
      level,
      isLevelEnabled: (asked: string) => order.indexOf(asked) >= order.indexOf(logger.level),
      child: (childBindings: Record<string, unknown>) => {
        children.push(childBindings);
        return make({ ...bindings, ...childBindings });
      },
      silent: () => {},
      ...Object.fromEntries(
        order.map((name) => [name, (...args: unknown[]) => lines.push({ level: name, bindings, args })]),
      ),
    };
    return logger as unknown as FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
  };
  return { parent: make({}), children, lines };
}

const factory = createLazyRequestLogger as unknown as (
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
) => FastifyBaseLogger;

describe('createLazyRequestLogger', () => {
  it('makes no child while nothing is logged at an enabled level', () => {
    const { parent, children, lines } = recordingParent('warn');
    const logger = factory(parent, { reqId: 'r1' }, {});
    logger.info({ res: {} }, 'request completed');
    logger.debug('detail');
    expect(logger.level).toBe('warn');
    expect(children).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('makes the child once, on the first enabled line, and logs every line through it with the bindings', () => {
    const { parent, children, lines } = recordingParent('info');
    const logger = factory(parent, { reqId: 'r2' }, {});
    logger.info({ code: 'NOT_FOUND' }, 'No status list');
    logger.error(new Error('boom'));
    expect(children).toEqual([{ reqId: 'r2' }]);
    expect(lines.map((line) => [line.level, line.bindings.reqId, line.args[1] ?? line.args[0]])).toEqual([
      ['info', 'r2', 'No status list'],
      ['error', 'r2', expect.any(Error)],
    ]);
  });

  it('follows a level set on it, and makes children of its own through the real child', () => {
    const { parent, children, lines } = recordingParent('warn');
    const logger = factory(parent, { reqId: 'r3' }, {});
    logger.level = 'debug';
    logger.debug('now on');
    logger.child({ step: 'x' }).warn('nested');
    expect(children).toEqual([{ reqId: 'r3' }, { step: 'x' }]);
    expect(lines.map((line) => [line.level, line.bindings])).toEqual([
      ['debug', { reqId: 'r3' }],
      ['warn', { reqId: 'r3', step: 'x' }],
    ]);
  });

  it("makes the child at once when Fastify passes options of a route's own (logLevel, serializers)", () => {
    const { parent, children } = recordingParent('warn');
    factory(parent, { reqId: 'r4' }, { level: 'error' });
    expect(children).toEqual([{ reqId: 'r4' }]);
  });
});
