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

/**
 * Query parameters that carry credentials (RFC 6750 §2.3 lets clients send a bearer
 * token as `access_token`). The service refuses them there, but the request line is
 * logged before that: their values are replaced in every logged URL.
 */
const SECRET_QUERY_PARAMETER = /([?&](?:access_token|id_token|refresh_token|token|api_key|apikey|x-api-key)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with credentials in the query string redacted. */
function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

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
    // Fastify takes a logger instance's own serializers over its defaults.
    serializers: { req: serializeRequest },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(loggerOptions, options.destination) : pino(loggerOptions);
}

export type { Logger };
