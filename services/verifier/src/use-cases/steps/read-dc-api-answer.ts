import type { Tracer } from '@opentelemetry/api';
import { ErrorCode, type DcApiProtocol, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest } from '@tessera/service-kit';
import type { SessionRow } from '../../db/schema.js';
import {
  readAnnexCDcApiResponse,
  readDcApiResponse,
  readDecryptedResponse,
  type AuthorizationResponseParts,
} from '../../domain/authorization-response.js';
import { acceptedDcApiAudiences } from '../../domain/dc-api-audience.js';
import { planDeviceRequest } from '../../domain/device-request-plan.js';
import { isEncryptedMode } from '../../domain/response-mode.js';
import { annexCVpToken } from '../../verification/annex-c-device-response.js';
import { decryptAuthorizationResponse } from '../../verification/index.js';
import { openAnnexCResponse } from '../../verification/open-annex-c-response.js';
import { traceCheck } from '../../verification/trace-check.js';
import {
  openAnnexCSessionKey,
  openSessionDecryptionKey,
  type OpenSessionDecryptionKeyDeps,
} from './open-session-decryption-key.js';

// Shared by the DC API answer (`verify-dc-api-response.ts`): what the browser
// returned for one protocol, opened and read into what the verification engine
// takes. Refusals that leave the session unchanged are thrown (400); an answer
// that opens but cannot stand for the request is a failed verification.

/** A DC API answer, read: a wallet error, a `vp_token` with the engine's DC API inputs, or an unusable presentation. */
export type DcApiAnswer =
  | { kind: 'error'; error: string }
  | {
      kind: 'vp_token';
      vpToken: unknown;
      /** The vp_token came inside the session's JWE: the key's thumbprint enters the OpenID4VP mdoc handover. */
      encrypted: boolean;
      /** `openid4vp-v1-multisigned`: the KB-JWT audiences accepted (the origin, or one of the request's signers). */
      dcApiAudiences?: string[];
      /** `org-iso-mdoc`: the Annex C SessionTranscript the device signatures cover. */
      mdocSessionTranscript?: Uint8Array;
    }
  /** Opened, but not a DeviceResponse that answers the request: the session fails with INVALID_VP_TOKEN. */
  | { kind: 'invalid_vp_token'; message: string };

export interface ReadDcApiAnswerDeps extends OpenSessionDecryptionKeyDeps {
  tracer?: Tracer;
}

export interface ReadDcApiAnswerInput {
  session: SessionRow;
  protocol: DcApiProtocol;
  authorizationResponse: Record<string, unknown>;
  /** Already one of the session's expected origins. */
  origin: string;
}

const unusable = (message: string) =>
  badRequest(`The authorization response is not usable: ${message}`, [{ path: '/authorizationResponse', message }]);

/** Reads the browser's answer by the protocol the wallet answered (`DigitalCredential.protocol`). */
export function readDcApiAnswer(deps: ReadDcApiAnswerDeps, input: ReadDcApiAnswerInput): Promise<DcApiAnswer> {
  return input.protocol === 'org-iso-mdoc' ? readAnnexCAnswer(deps, input) : readOpenid4vpAnswer(deps, input);
}

/**
 * The OpenID4VP protocols (OpenID4VP 1.0 Appendix A.4): `{ vp_token }`, `{ response: <JWE> }`
 * (decrypted with the session key), the spec's `id_token` alias, or `{ error }`.
 * Encrypted means encrypted: a `dc_api.jwt` session refuses a plaintext vp_token.
 */
async function readOpenid4vpAnswer(deps: ReadDcApiAnswerDeps, input: ReadDcApiAnswerInput): Promise<DcApiAnswer> {
  const { session } = input;
  const mode = session.responseMode as ResponseMode;
  let parts: AuthorizationResponseParts = readDcApiResponse(input.authorizationResponse);
  const encrypted = parts.kind === 'encrypted';
  if (parts.kind === 'encrypted') {
    const privateJwk = openSessionDecryptionKey(deps, session);
    if (!privateJwk)
      throw badRequest(`A ${mode} session takes an unencrypted response (vp_token), not response.`, [
        { path: '/authorizationResponse/response', message: 'is not expected for this session' },
      ]);
    const decrypted = await decryptAuthorizationResponse({ jwe: parts.jwe, privateJwk });
    if (!decrypted.ok)
      throw new AppError(
        400,
        ErrorCode.DECRYPTION_FAILED,
        `The response cannot be decrypted with the session key: ${decrypted.message}.`,
      );
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid') throw unusable(parts.message);
  if (parts.kind === 'encrypted') throw unusable('it is encrypted twice');
  // Encrypted means encrypted: a dc_api.jwt session promised the wallet's answer
  // would reach only this service, so a plaintext vp_token (or id_token) is refused
  // exactly as direct_post.jwt refuses one, and the session stays open for the real
  // answer. A wallet error may come in plaintext: it carries nothing to protect.
  if (parts.kind === 'vp_token' && !encrypted && isEncryptedMode(mode)) {
    throw new AppError(
      400,
      ErrorCode.RESPONSE_NOT_ENCRYPTED,
      `A ${mode} session takes its answer encrypted to the session key (authorizationResponse.response, a JWE), not in plaintext.`,
      [{ path: '/authorizationResponse', message: 'must be { response: <JWE> } for this session' }],
    );
  }
  if (parts.kind === 'error') return { kind: 'error', error: parts.error };
  return {
    kind: 'vp_token',
    vpToken: parts.vpToken,
    encrypted,
    ...(input.protocol === 'openid4vp-v1-multisigned'
      ? {
          dcApiAudiences: acceptedDcApiAudiences({
            protocol: input.protocol,
            origin: input.origin,
            signerClientIds: session.dcApiSignerClientIds ?? [],
          }),
        }
      : {}),
  };
}

/**
 * `org-iso-mdoc` (ISO/IEC 18013-7:2025 Annex C): the EncryptedResponse opened with
 * the session's HPKE key over the transcript of its EncryptionInfo and the origin
 * (one that does not open: 400 DECRYPTION_FAILED, session unchanged), its
 * DeviceResponse turned into the `vp_token` the engine verifies against the
 * DocRequests of the session's query, with the Annex C transcript for device auth.
 */
async function readAnnexCAnswer(deps: ReadDcApiAnswerDeps, input: ReadDcApiAnswerInput): Promise<DcApiAnswer> {
  const { session } = input;
  const parts = readAnnexCDcApiResponse(input.authorizationResponse);
  if (parts.kind === 'invalid') throw unusable(parts.message);
  if (parts.kind === 'error') return { kind: 'error', error: parts.error };
  const recipientPrivateJwk = openAnnexCSessionKey(deps, session);
  const opened =
    recipientPrivateJwk && session.annexCEncryptionInfo
      ? await traceCheck(
          deps.tracer,
          'annex_c_response',
          () =>
            openAnnexCResponse({
              response: parts.response,
              encryptionInfo: session.annexCEncryptionInfo!,
              origin: input.origin,
              recipientPrivateJwk,
            }),
          (result) => (result.ok ? 'ok' : ErrorCode.DECRYPTION_FAILED),
        )
      : ({ ok: false, message: 'The session has no Annex C key.' } as const);
  if (!opened.ok)
    throw new AppError(
      400,
      ErrorCode.DECRYPTION_FAILED,
      `The org-iso-mdoc response cannot be opened: ${opened.message}`,
    );
  const plan = planDeviceRequest(session.dcqlQuery);
  // The plan held when the session was created from this very query.
  if (!plan.ok) throw new Error(`the org-iso-mdoc session's query no longer plans: ${plan.message}`);
  const vpToken = annexCVpToken({ deviceResponse: opened.deviceResponse, docRequests: plan.docRequests });
  if (!vpToken.ok) return { kind: 'invalid_vp_token', message: vpToken.message };
  return {
    kind: 'vp_token',
    vpToken: vpToken.vpToken,
    encrypted: true,
    mdocSessionTranscript: opened.sessionTranscript,
  };
}
