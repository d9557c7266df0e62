import { ErrorCode, type DcApiProtocol, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest } from '@tessera/service-kit';
import { checkDcApiProtocolOptions } from './dc-api-protocols.js';
import { hasResponseCodeParameter } from './redirect-uri.js';

/** Digital Credentials API modes (OpenID4VP 1.0 Appendix A): no request_uri, no response_uri, origins instead. */
export const DC_API_MODES = ['dc_api', 'dc_api.jwt'] as const satisfies readonly ResponseMode[];

export function isDcApiMode(mode: ResponseMode): boolean {
  return (DC_API_MODES as readonly ResponseMode[]).includes(mode);
}

/** Modes whose response is an encrypted JWT (JWE, ECDH-ES) to the session's ephemeral key (OpenID4VP 1.0 §8.3). */
export function isEncryptedMode(mode: ResponseMode): boolean {
  return mode === 'direct_post.jwt' || mode === 'dc_api.jwt';
}

export interface CheckResponseModeOptions {
  responseMode: ResponseMode;
  expectedOrigins?: string[];
  redirectUri?: string;
  dcApiProtocols?: DcApiProtocol[];
}

/**
 * `expectedOrigins` is required for the DC API modes and refused for the
 * redirect modes; `redirectUri` (same-device redirect after `direct_post`) only
 * makes sense for the redirect modes, and must not carry `response_code` (the
 * service adds it). Origins must be bare origins. `dcApiProtocols` only with the
 * DC API modes, and `org-iso-mdoc` with exactly one origin (`checkDcApiProtocolOptions`).
 */
export function checkResponseModeOptions(options: CheckResponseModeOptions): void {
  const { responseMode, expectedOrigins, redirectUri } = options;
  if (isDcApiMode(responseMode)) {
    if (!expectedOrigins || expectedOrigins.length === 0) {
      throw new AppError(
        400,
        ErrorCode.EXPECTED_ORIGINS_REQUIRED,
        `expectedOrigins is required for responseMode ${responseMode}: list the web origins allowed to receive the response.`,
        [{ path: '/expectedOrigins', message: `is required for responseMode ${responseMode}` }],
      );
    }
    if (redirectUri)
      throw badRequest('redirectUri applies to direct_post modes only.', [
        { path: '/redirectUri', message: `is not allowed with responseMode ${responseMode}` },
      ]);
  } else if (expectedOrigins !== undefined) {
    throw new AppError(
      400,
      ErrorCode.EXPECTED_ORIGINS_NOT_ALLOWED,
      `expectedOrigins applies to the dc_api modes only, not to responseMode ${responseMode}.`,
      [{ path: '/expectedOrigins', message: `is not allowed with responseMode ${responseMode}` }],
    );
  }
  const badOrigins = (expectedOrigins ?? [])
    .map((origin, index) => ({ origin, index }))
    .filter(({ origin }) => !isOrigin(origin));
  if (badOrigins.length > 0) {
    throw badRequest(
      'expectedOrigins must be origins such as https://rp.example (scheme, host, optional port).',
      badOrigins.map(({ index }) => ({ path: `/expectedOrigins/${index}`, message: 'is not an origin' })),
    );
  }
  checkDcApiProtocolOptions({
    responseMode,
    isDcApi: isDcApiMode(responseMode),
    ...(options.dcApiProtocols ? { dcApiProtocols: options.dcApiProtocols } : {}),
    ...(expectedOrigins ? { expectedOrigins } : {}),
  });
  // The verified answer's redirect adds response_code; one already there would be ambiguous.
  if (redirectUri && hasResponseCodeParameter(redirectUri)) {
    throw badRequest('redirectUri must not carry a response_code query parameter: the service adds its own.', [
      { path: '/redirectUri', message: 'has a response_code query parameter' },
    ]);
  }
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}
