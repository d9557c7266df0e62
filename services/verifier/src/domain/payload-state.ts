import { badRequest } from '@tessera/service-kit';
import { isDcApiMode } from './response-mode.js';
import type { ResponseMode } from '@tessera/contracts';

/** 22 base64url characters carry 132 bits: the least a random `state` of at least 128 bits takes in the URL-safe alphabet. */
export const MIN_UNBOUND_STATE_LENGTH = 22;

/** Whether a credential query of the (valid) query asks for a presentation without holder binding. */
export function asksWithoutHolderBinding(dcqlQuery: Record<string, unknown>): boolean {
  const credentials = Array.isArray(dcqlQuery.credentials) ? (dcqlQuery.credentials as unknown[]) : [];
  return credentials.some(
    (credential) =>
      typeof credential === 'object' &&
      credential !== null &&
      (credential as Record<string, unknown>).require_cryptographic_holder_binding === false,
  );
}

/**
 * OpenID4VP 1.0 §5.3: when at least one presentation without holder binding is requested and the
 * DC API is not used, `state` binds the response to the request (no KB-JWT carries the nonce), so
 * it must be cryptographically random, fresh and of at least 128 bits. A caller-given
 * `payloadState` shorter than 22 characters cannot be (the schema already limits it to the
 * URL-safe alphabet); the service's own is 256 bits. 400 VALIDATION_FAILED at `/payloadState`.
 */
export function checkPayloadState(options: {
  payloadState?: string;
  responseMode: ResponseMode;
  dcqlQuery: Record<string, unknown>;
}): void {
  const { payloadState } = options;
  if (payloadState === undefined || isDcApiMode(options.responseMode)) return;
  if (payloadState.length >= MIN_UNBOUND_STATE_LENGTH || !asksWithoutHolderBinding(options.dcqlQuery)) return;
  throw badRequest(
    `payloadState is the only binding of the answer to this request (a credential query does not require holder binding): give a fresh random value of at least ${MIN_UNBOUND_STATE_LENGTH} URL-safe characters (128 bits), or leave it out to have one generated.`,
    [
      {
        path: '/payloadState',
        message: `/payloadState: must be at least ${MIN_UNBOUND_STATE_LENGTH} characters of fresh randomness when a credential query does not require holder binding`,
      },
    ],
  );
}
