import type { TSchema, Static } from 'typebox';
import { Value } from 'typebox/value';
import { ErrorCode, type NatsError, type NatsReplyOf } from '@tessera/contracts';
import { AppError, dependencyUnavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { BusUnavailableError, type MessageBus, type MessageContext } from './message-bus.js';

export interface CallServiceOptions<Req extends TSchema, Res extends TSchema> {
  subject: string;
  requestSchema: Req;
  replyDataSchema: Res;
  request: Static<Req>;
  requestId?: string;
  timeoutMs?: number;
  /** Names the peer in the 503 message, e.g. "the ecosystem service". */
  peer: string;
}

/**
 * Calls another service over the bus. Resolves with the reply's `data`; an
 * `{ ok: false }` reply is thrown as an AppError with the peer's status and code;
 * silence, no responders or a reply that breaks the contract is a 503.
 */
export async function callService<Req extends TSchema, Res extends TSchema>(
  bus: MessageBus,
  options: CallServiceOptions<Req, Res>,
): Promise<Static<Res>> {
  let reply: unknown;
  try {
    reply = await bus.request(options.subject, options.request, {
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
  } catch (error) {
    if (error instanceof BusUnavailableError) {
      throw dependencyUnavailable(`${capitalise(options.peer)} did not answer (${error.reason}); try again shortly.`, error);
    }
    throw error;
  }
  const envelope = reply as NatsReplyOf<unknown> | undefined;
  if (envelope?.ok === true && Value.Check(options.replyDataSchema, envelope.data)) return envelope.data as Static<Res>;
  if (envelope?.ok === false && isNatsError(envelope.error)) {
    throw new AppError(envelope.error.statusCode, envelope.error.code, envelope.error.message);
  }
  throw dependencyUnavailable(`${capitalise(options.peer)} answered with a reply that breaks the contract.`);
}

function isNatsError(error: unknown): error is NatsError {
  const e = error as NatsError | undefined;
  return typeof e?.statusCode === 'number' && typeof e.code === 'string' && typeof e.message === 'string';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface ServeRequestsOptions<Req extends TSchema> {
  subject: string;
  queue: string;
  requestSchema: Req;
  logger: Logger;
  handler: (request: Static<Req>, context: MessageContext) => Promise<unknown>;
}

/**
 * Answers a subject with the reply envelope: a request failing its schema gets
 * 400 VALIDATION_FAILED, an AppError its own status and code, anything else 500.
 */
export function serveRequests<Req extends TSchema>(bus: MessageBus, options: ServeRequestsOptions<Req>): () => void {
  return bus.respond(options.subject, options.queue, async (payload, context) => {
    if (!Value.Check(options.requestSchema, payload)) {
      const problems = [...Value.Errors(options.requestSchema, payload)].slice(0, 10);
      const message = problems.map((p) => `${p.instancePath || '/'} ${p.message}`).join('; ');
      return failure(400, ErrorCode.VALIDATION_FAILED, `The request is invalid: ${message || 'not an object'}.`);
    }
    try {
      return { ok: true, data: await options.handler(payload as Static<Req>, context) };
    } catch (error) {
      if (error instanceof AppError) return failure(error.statusCode, error.code, error.message);
      options.logger.error({ err: error, subject: options.subject, requestId: context.requestId }, 'request handler failed');
      return failure(500, ErrorCode.INTERNAL, 'An unexpected error occurred; it has been logged.');
    }
  });
}

function failure(statusCode: number, code: string, message: string) {
  return { ok: false, error: { statusCode, code, message } };
}
