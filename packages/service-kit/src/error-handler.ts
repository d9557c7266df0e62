import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorBody, type ErrorDetail } from '@tessera/contracts';
import { AppError, clientDataProblem, isUnavailableError } from './errors.js';

/** Codes for statuses Fastify or a plugin answers on its own. */
const CODE_BY_STATUS: Record<number, string> = {
  400: ErrorCode.VALIDATION_FAILED,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  406: ErrorCode.NOT_ACCEPTABLE,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.BODY_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
  501: ErrorCode.NOT_IMPLEMENTED,
  503: ErrorCode.DEPENDENCY_UNAVAILABLE,
};

interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Turns Fastify's schema errors into `details` with JSON Pointers into the named request part. */
export function validationDetails(errors: AjvError[], context: string | undefined): ErrorDetail[] {
  return errors.map((error) => {
    let path = error.instancePath;
    if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
      path = `${path}/${error.params.missingProperty}`;
    }
    if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
      path = `${path}/${error.params.additionalProperty}`;
      return { path, message: `${describePart(context)} has an unknown field ${path}` };
    }
    return {
      path: path || '/',
      message: `${describePart(context)}${path ? ` ${path}` : ''} ${error.message ?? 'is invalid'}`,
    };
  });
}

function describePart(context: string | undefined): string {
  switch (context) {
    case 'querystring':
      return 'query parameter';
    case 'params':
      return 'path parameter';
    case 'headers':
      return 'header';
    default:
      return 'body';
  }
}

/** Maps any thrown value to the platform error body. */
export function toErrorBody(error: unknown): { body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof AppError) {
    return { body: errorBody(error.statusCode, error.code, error.message, error.details) };
  }
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError?.validation) {
    const details = validationDetails(fastifyError.validation, fastifyError.validationContext);
    return { body: errorBody(400, ErrorCode.VALIDATION_FAILED, 'The request is invalid: see details.', details) };
  }
  const dataProblem = clientDataProblem(error);
  if (dataProblem) {
    return { body: errorBody(400, ErrorCode.VALIDATION_FAILED, `The request is invalid: ${dataProblem}.`) };
  }
  if (isUnavailableError(error)) {
    return {
      body: errorBody(
        503,
        ErrorCode.DEPENDENCY_UNAVAILABLE,
        'A dependency of this service is unavailable; try again shortly.',
      ),
    };
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      body: errorBody(
        status,
        CODE_BY_STATUS[status] ?? ErrorCode.VALIDATION_FAILED,
        clientMessage(fastifyError, status),
      ),
    };
  }
  if (status === 501 || status === 503) {
    return {
      body: errorBody(
        status,
        CODE_BY_STATUS[status]!,
        status === 503 ? 'The service is unavailable; try again shortly.' : 'Not implemented.',
      ),
    };
  }
  return { body: errorBody(500, ErrorCode.INTERNAL, 'An unexpected error occurred; it has been logged.') };
}

/** Fastify's own 4xx messages, made into sentences a person can act on. */
function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is larger than this service accepts.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The body is empty but Content-Type is application/json: send a JSON body.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The body is not valid JSON.';
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') return 'The body is not valid JSON.';
  if (status === 429) return 'Too many requests: slow down and retry after the time given in Retry-After.';
  return error.message || STATUS_CODES[status] || 'Bad request.';
}

export function errorBody(statusCode: number, code: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
    ...(details && details.length > 0 ? { details } : {}),
  };
}

/** Installs the one error handler and the not-found handler of a service. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { body } = toErrorBody(error);
    if (body.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: body.code, statusCode: body.statusCode }, body.message);
    }
    void reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody(404, ErrorCode.NOT_FOUND, `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
}
