import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RetryLaterError } from '../domain/errors.js';

/** Path parameters every management route has. */
export const OrgParamsSchema = Type.Object({ orgId: Type.String({ minLength: 1, maxLength: 200 }) });

/** Security of the management routes: a bearer token with a role in the path's organisation. */
export const MANAGEMENT = 'bearer' as const;

/**
 * Route `onError` hook: a RetryLaterError (a per-session limit on a management
 * route) carries its wait; the service's error handler writes the body, this
 * adds `Retry-After` (ARCHITECTURE.md: 429 sets it).
 */
export async function setRetryAfter(_request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<void> {
  if (error instanceof RetryLaterError) void reply.header('retry-after', String(error.retryAfterSeconds));
}
