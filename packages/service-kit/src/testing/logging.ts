import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logger.js';

/** A logger whose lines are kept in memory, to assert what was (and was not) logged. */
export function captureLogger(
  name = 'test',
  level = 'trace',
): { logger: Logger; lines: () => string[]; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ name, level, destination });
  return {
    logger,
    lines: () => chunks.join('').split('\n').filter(Boolean),
    text: () => chunks.join(''),
  };
}

/** A logger that writes nothing, for tests that do not look at logs. */
export function silentLogger(name = 'test'): Logger {
  return createLogger({ name, level: 'silent' });
}
