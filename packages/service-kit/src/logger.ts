import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Paths pino replaces with "[redacted]" wherever a request, a config object or an
 * error is logged. Secrets must never reach a log at any level.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'authorization',
  'apiKey',
  'API_KEY',
  'KEY_ENCRYPTION_KEY',
  'password',
  'privateKey',
  'privateKeyPem',
  'privateJwk',
  'token',
  'accessToken',
  '*.authorization',
  '*.apiKey',
  '*.API_KEY',
  '*.KEY_ENCRYPTION_KEY',
  '*.password',
  '*.privateKey',
  '*.privateKeyPem',
  '*.privateJwk',
  '*.d',
];

export interface CreateLoggerOptions {
  name: string;
  level: string;
  /** Where lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const loggerOptions: LoggerOptions = {
    name: options.name,
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(loggerOptions, options.destination) : pino(loggerOptions);
}

export type { Logger };
