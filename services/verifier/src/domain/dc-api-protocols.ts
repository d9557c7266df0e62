import { ErrorCode, type DcApiProtocol, type DcApiRequest, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest } from '@tessera/service-kit';
import type { DeviceRequestPlan } from './device-request-plan.js';

// Which Digital Credentials API protocols a session offers (issue 24). The names,
// and the rules a body's `dcApiProtocols` must follow on its own (non-empty, known,
// no repeats), are the contracts' schema; what depends on the rest of the body or
// on the query is checked here.

/** What a DC API session offers when the relying party names no protocol: the single signed request. */
export const DEFAULT_DC_API_PROTOCOLS: readonly DcApiProtocol[] = ['openid4vp-v1-signed'];

/** The OpenID4VP protocols (their answers carry a `vp_token`); `org-iso-mdoc` answers an EncryptedResponse. */
export function isOpenid4vpProtocol(protocol: DcApiProtocol): boolean {
  return protocol !== 'org-iso-mdoc';
}

/** The protocols a stored DC API session offers: as chosen, or the default for sessions from before the choice. */
export function sessionDcApiProtocols(stored: readonly string[] | null): readonly DcApiProtocol[] {
  return stored && stored.length > 0 ? (stored as DcApiProtocol[]) : DEFAULT_DC_API_PROTOCOLS;
}

/**
 * `dcApiProtocols` next to the other options: only for the DC API modes
 * (`isDcApi`), and `org-iso-mdoc` only with exactly one expected origin, since
 * each ReaderAuth signs the SessionTranscript of one origin.
 */
export function checkDcApiProtocolOptions(options: {
  responseMode: ResponseMode;
  isDcApi: boolean;
  dcApiProtocols?: readonly DcApiProtocol[];
  expectedOrigins?: readonly string[];
}): void {
  const { dcApiProtocols } = options;
  if (dcApiProtocols === undefined) return;
  if (!options.isDcApi)
    throw badRequest(`dcApiProtocols applies to the dc_api modes only, not to responseMode ${options.responseMode}.`, [
      { path: '/dcApiProtocols', message: `is not allowed with responseMode ${options.responseMode}` },
    ]);
  if (dcApiProtocols.includes('org-iso-mdoc') && (options.expectedOrigins?.length ?? 0) !== 1)
    throw new AppError(
      400,
      ErrorCode.DC_API_PROTOCOL_NOT_SUPPORTED,
      'org-iso-mdoc needs exactly one expected origin: each ReaderAuth signs the SessionTranscript of one origin. Create one session per origin.',
      [{ path: '/expectedOrigins', message: 'must hold exactly one origin when dcApiProtocols includes org-iso-mdoc' }],
    );
}

/** 400 DC_API_PROTOCOL_NOT_SUPPORTED for a query a DeviceRequest cannot express, naming the part (a pointer under `queryPointer`). */
export function deviceRequestNotSupported(plan: Extract<DeviceRequestPlan, { ok: false }>, queryPointer: string) {
  return new AppError(
    400,
    ErrorCode.DC_API_PROTOCOL_NOT_SUPPORTED,
    `org-iso-mdoc cannot ask for this query: ${plan.path || 'the query'} ${plan.message}. Offer an OpenID4VP protocol instead, or simplify the query.`,
    [{ path: `${queryPointer}${plan.path}`, message: plan.message }],
  );
}

/** `dcApiRequest` of the create answer: the signed entry when offered (today's field), else the first. */
export function primaryDcApiRequest(requests: readonly DcApiRequest[]): DcApiRequest {
  const primary = requests.find((request) => request.protocol === 'openid4vp-v1-signed') ?? requests[0];
  if (!primary) throw new Error('a DC API session offers at least one request');
  return primary;
}
