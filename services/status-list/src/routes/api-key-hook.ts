import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual, unauthorized } from '@tessera/service-kit';

/** onRequest hook for writes: `x-api-key` must equal the configured key (compared in constant time). */
export function createApiKeyHook(apiKey: string) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const given = request.headers['x-api-key'];
    if (typeof given !== 'string' || given.length === 0) {
      throw unauthorized('Send the API key in the x-api-key header.');
    }
    if (!constantTimeEqual(given, apiKey)) throw unauthorized('The API key is not valid.');
  };
}
