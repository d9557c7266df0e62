import type { DcApiProtocol } from '@tessera/contracts';

/**
 * The audiences a DC API answer may name (KB-JWT `aud`). OpenID4VP 1.0
 * Appendix A.4: the audience is the origin prefixed with `origin:`, even for
 * signed requests. A multi-signed request has no single client_id, and some
 * wallets answer it with the client_id of the signer they trusted; that is
 * accepted as long as it is one of the request's signers — any other value is
 * `AUDIENCE_MISMATCH`.
 */
export function acceptedDcApiAudiences(options: {
  protocol: DcApiProtocol;
  /** The origin the browser reported (already checked against `expectedOrigins`). */
  origin: string;
  /** `openid4vp-v1-multisigned`: the full client ids of the request's signers. */
  signerClientIds?: readonly string[];
}): string[] {
  const origin = `origin:${options.origin}`;
  if (options.protocol !== 'openid4vp-v1-multisigned') return [origin];
  return [origin, ...(options.signerClientIds ?? []).filter((clientId) => clientId !== origin)];
}
