import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../constant-time.js';
import { unauthorized } from '../errors.js';

/**
 * onRequest hook for routes a single shared secret guards (the status list's writes):
 * `x-api-key` must equal `apiKey`, compared in constant time; 401 otherwise. Register
 * it on `onRequest`, so a caller without the key learns nothing about the body's rules.
 */
export function createApiKeyHook(apiKey: string) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const given = request.headers['x-api-key'];
    if (typeof given !== 'string' || given.length === 0) {
      throw unauthorized('Send the API key in the x-api-key header.');
    }
    if (!constantTimeEqual(given, apiKey)) throw unauthorized('The API key is not valid.');
  };
}
