import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@tessera/contracts';
import { forbidden } from '@tessera/service-kit';

/**
 * With ECOSYSTEM_ENABLED=false every gated route answers 403 ECOSYSTEM_DISABLED, after
 * authentication (the hook runs after the auth hook of the enclosing scope).
 */
export function createFeatureGate(enabled: boolean) {
  return async (_request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!enabled) throw forbidden('The ecosystem feature is disabled on this platform.', ErrorCode.ECOSYSTEM_DISABLED);
  };
}
