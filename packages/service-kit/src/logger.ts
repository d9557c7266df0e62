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

/**
 * Properties of a failed query's error that hold its bound values: Drizzle's
 * `DrizzleQueryError.params` (also appended to its message as `params: …`) and
 * postgres.js `parameters`. Those values are whatever the statement carried —
 * claims of a verified presentation, sealed keys — so a logged error keeps the
 * query text and drops them (issue 15: no personal data in logs).
 */
const QUERY_VALUE_PROPERTIES = ['params', 'parameters'] as const;
const PARAMS_IN_MESSAGE = /\nparams: [\s\S]*$/;
const PARAMS_IN_STACK = /\nparams: [\s\S]*?(?=\n\s+at |$)/;

type SerializedError = Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };

function withoutQueryValues(serialized: SerializedError, depth = 0): SerializedError {
  if (depth > 8) return serialized;
  for (const property of QUERY_VALUE_PROPERTIES) if (property in serialized) serialized[property] = '[redacted]';
  if (typeof serialized.message === 'string')
    serialized.message = serialized.message.replace(PARAMS_IN_MESSAGE, '\nparams: [redacted]');
  if (typeof serialized.stack === 'string')
    serialized.stack = serialized.stack.replace(PARAMS_IN_STACK, '\nparams: [redacted]');
  if (serialized.cause && typeof serialized.cause === 'object')
    serialized.cause = withoutQueryValues(serialized.cause as SerializedError, depth + 1);
  return serialized;
}

/** pino's error serializer, without the bound values of a failed query (see QUERY_VALUE_PROPERTIES). */
function serializeError(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  return serialized && typeof serialized === 'object' ? withoutQueryValues(serialized as SerializedError) : serialized;
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
    serializers: { req: serializeRequest, err: serializeError },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(loggerOptions, options.destination) : pino(loggerOptions);
}

export type { Logger };
