import type { FastifyReply, FastifyRequest } from 'fastify';
import { ecosystemDisabled } from '../domain/errors.js';

/**
 * With ECOSYSTEM_ENABLED=false every gated route answers 403 ECOSYSTEM_DISABLED, after
 * authentication (the hook runs after the auth hook of the enclosing scope).
 */
export function createFeatureGate(enabled: boolean) {
  return async (_request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!enabled) throw ecosystemDisabled();
  };
}
