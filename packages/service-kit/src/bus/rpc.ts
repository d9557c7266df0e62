import type { Static, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import {
  ErrorCode,
  type EventDescriptor,
  type NatsError,
  type NatsReplyOf,
  type RpcDescriptor,
} from '@tessera/contracts';
import { AppError, dependencyUnavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { BusUnavailableError, type MessageBus, type MessageContext } from './message-bus.js';

const validators = new WeakMap<TSchema, Validator>();

/**
 * The schema's checker, compiled once: every event published or received and every request
 * served is checked against its contract, and the interpreted `Value.Check` walked the
 * schema again each time (about 30 µs per whole verification's events).
 */
function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

export type RpcRequest<R extends RpcDescriptor> = Static<R['request']>;
export type RpcReply<R extends RpcDescriptor> = Static<R['reply']>;
export type EventPayload<E extends EventDescriptor> = Static<E['payload']>;

export interface CallServiceOptions {
  requestId?: string;
  timeoutMs?: number;
}

/**
 * Calls another service over the bus. Resolves with the reply's `data`; an
 * `{ ok: false }` reply with a declared failure code (or VALIDATION_FAILED) is thrown
 * as an AppError with the peer's status and code; silence, no responders, the peer's
 * own failure (INTERNAL) or a reply that breaks the contract is a 503.
 */
export async function callService<R extends RpcDescriptor>(
  bus: MessageBus,
  rpc: R,
  request: RpcRequest<R>,
  options: CallServiceOptions = {},
): Promise<RpcReply<R>> {
  let reply: unknown;
  try {
    reply = await bus.request(rpc.subject, request, {
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
  } catch (error) {
    if (error instanceof BusUnavailableError) {
      throw dependencyUnavailable(
        `${capitalise(rpc.peer)} did not answer (${error.reason}); try again shortly.`,
        error,
      );
    }
    throw error;
  }
  const envelope = reply as NatsReplyOf<unknown> | undefined;
  if (envelope?.ok === true && validatorOf(rpc.reply).Check(envelope.data)) return envelope.data as RpcReply<R>;
  if (envelope?.ok === false && isNatsError(envelope.error) && isPassedOn(rpc, envelope.error.code)) {
    throw new AppError(envelope.error.statusCode, envelope.error.code, envelope.error.message);
  }
  if (envelope?.ok === false && isNatsError(envelope.error) && envelope.error.code === ErrorCode.INTERNAL) {
    throw dependencyUnavailable(`${capitalise(rpc.peer)} failed to answer; try again shortly.`);
  }
  throw dependencyUnavailable(`${capitalise(rpc.peer)} answered with a reply that breaks the contract.`);
}

/** A refusal the caller's client may see: one the descriptor declares, or a request that failed the peer's schema. */
function isPassedOn(rpc: RpcDescriptor, code: string): boolean {
  return code === ErrorCode.VALIDATION_FAILED || (rpc.failures as readonly string[]).includes(code);
}

function isNatsError(error: unknown): error is NatsError {
  const e = error as NatsError | undefined;
  return typeof e?.statusCode === 'number' && typeof e.code === 'string' && typeof e.message === 'string';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface ServeRequestsOptions<R extends RpcDescriptor> {
  logger: Logger;
  /** Answers one validated request; throws an AppError whose code is one of `rpc.failures` to refuse it. */
  handler: (request: RpcRequest<R>, context: MessageContext) => Promise<RpcReply<R>>;
}

/**
 * Answers `rpc.subject` in `rpc.queue` with the reply envelope: a request failing its
 * schema gets 400 VALIDATION_FAILED, an AppError with a declared failure code its own
 * status and code; a reply that breaks `rpc.reply`, an undeclared code or anything
 * else is logged and answered 500 INTERNAL, so the contract holds on the wire.
 */
export function serveRequests<R extends RpcDescriptor>(
  bus: MessageBus,
  rpc: R,
  options: ServeRequestsOptions<R>,
): () => void {
  const declared = new Set<string>(rpc.failures);
  return bus.respond(rpc.subject, rpc.queue, async (payload, context) => {
    if (!validatorOf(rpc.request).Check(payload)) {
      const problems = validatorOf(rpc.request).Errors(payload).slice(0, 10);
      const message = problems.map((p) => `${p.instancePath || '/'} ${p.message}`).join('; ');
      return failure(400, ErrorCode.VALIDATION_FAILED, `The request is invalid: ${message || 'not an object'}.`);
    }
    try {
      const data = await options.handler(payload as RpcRequest<R>, context);
      if (validatorOf(rpc.reply).Check(data)) return { ok: true, data };
      options.logger.error(
        { subject: rpc.subject, requestId: context.requestId },
        'reply breaks the contract of its subject',
      );
    } catch (error) {
      if (error instanceof AppError && declared.has(error.code))
        return failure(error.statusCode, error.code, error.message);
      options.logger.error(
        { err: error, subject: rpc.subject, requestId: context.requestId },
        'request handler failed',
      );
    }
    return failure(500, ErrorCode.INTERNAL, 'An unexpected error occurred; it has been logged.');
  });
}

function failure(statusCode: number, code: string, message: string) {
  return { ok: false, error: { statusCode, code, message } };
}

/**
 * Publishes an event (fire and forget, as NATS events are). The payload is checked
 * against the event's schema first: a payload that breaks it is a bug, thrown here
 * rather than sent to every subscriber.
 */
export function publishEvent<E extends EventDescriptor>(
  bus: MessageBus,
  event: E,
  payload: EventPayload<E>,
  options: { requestId?: string } = {},
): void {
  if (!validatorOf(event.payload).Check(payload)) {
    const problem = validatorOf(event.payload).Errors(payload)[0];
    throw new Error(
      `event ${event.subject} breaks its schema: ${problem?.instancePath || '/'} ${problem?.message ?? ''}`,
    );
  }
  bus.publish(event.subject, payload, options.requestId ? { requestId: options.requestId } : {});
}

export interface SubscribeEventsOptions<E extends EventDescriptor> {
  logger: Logger;
  /** With a queue group, one replica of the group takes each event. */
  queue?: string;
  handler: (payload: EventPayload<E>, context: MessageContext) => void | Promise<void>;
}

/** Receives `event.subject`; a payload that breaks the event's schema is logged and dropped. */
export function subscribeEvents<E extends EventDescriptor>(
  bus: MessageBus,
  event: E,
  options: SubscribeEventsOptions<E>,
): () => void {
  return bus.subscribe(
    event.subject,
    async (payload, context) => {
      if (!validatorOf(event.payload).Check(payload)) {
        options.logger.warn(
          { requestId: context.requestId, subject: event.subject },
          'dropped an event that breaks its schema',
        );
        return;
      }
      await options.handler(payload as EventPayload<E>, context);
    },
    options.queue ? { queue: options.queue } : {},
  );
}
