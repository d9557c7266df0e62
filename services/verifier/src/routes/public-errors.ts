import { toErrorBody } from '@tessera/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from './oauth-error.js';

/** Wallet-facing errors: the OAuth shape (ARCHITECTURE.md), a generic sentence for 5xx. */
export function oauthErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof OAuthError) {
    request.log.info({ statusCode: error.statusCode, error: error.error }, error.description);
    if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
    void reply.code(error.statusCode).send({ error: error.error, error_description: error.description });
    return;
  }
  const { body } = toErrorBody(error);
  if (body.statusCode >= 500) request.log.error({ err: error }, 'wallet request failed');
  // RFC 6749 §4.1.2.1: temporarily_unavailable for overload and for a dependency that is down (503).
  const oauthCode =
    body.statusCode === 429 || body.statusCode === 503
      ? 'temporarily_unavailable'
      : body.statusCode >= 500
        ? 'server_error'
        : 'invalid_request';
  void reply.code(body.statusCode).send({ error: oauthCode, error_description: body.message });
}
