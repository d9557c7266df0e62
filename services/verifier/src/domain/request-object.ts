import type { JWK, JWTPayload } from 'jose';
import type { ResponseMode } from '@tessera/contracts';
import { isDcApiMode, isEncryptedMode } from './response-mode.js';
import type { VerifierInfoAttestation } from './verifier-info.js';

/** `typ` and media type of a signed request object (OpenID4VP 1.0 §5, RFC 9101). */
export const REQUEST_OBJECT_TYP = 'oauth-authz-req+jwt';
export const REQUEST_OBJECT_MEDIA_TYPE = 'application/oauth-authz-req+jwt';

/** `aud` of a request object whose wallet is not known in advance (OpenID4VP 1.0 §5.8, static discovery). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/** Content encryption the verifier can decrypt (OpenID4VP 1.0 §8.3; HAIP asks for A128GCM and A256GCM). */
export const ENCRYPTED_RESPONSE_ENC_VALUES = ['A128GCM', 'A256GCM'];

/**
 * What the verifier can verify, per format (OpenID4VP 1.0 Appendix B):
 * JOSE algorithm names for SD-JWT VC, fully specified and classic COSE
 * algorithm numbers for mdoc (-7 ES256, -9 ESP256, -35 ES384, -36 ES512, -8 EdDSA).
 */
export const VP_FORMATS_SUPPORTED = {
  'dc+sd-jwt': {
    'sd-jwt_alg_values': ['ES256', 'ES384', 'ES512', 'EdDSA'],
    'kb-jwt_alg_values': ['ES256', 'ES384', 'ES512', 'EdDSA'],
  },
  mso_mdoc: {
    issuerauth_alg_values: [-7, -9, -35, -36, -8],
    deviceauth_alg_values: [-7, -9, -35, -36, -8],
  },
};

export interface BuildClientMetadataOptions {
  /** The verifier's display data (`client_name`, `logo_uri`). */
  display?: Record<string, unknown> | null;
  /** Encrypted modes: the session's public ECDH-ES key. */
  encryptionPublicJwk?: JWK | null;
}

/** `client_metadata` of the request object (OpenID4VP 1.0 §5.1). */
export function buildClientMetadata(options: BuildClientMetadataOptions): Record<string, unknown> {
  const display = options.display ?? {};
  return {
    ...(typeof display.client_name === 'string' ? { client_name: display.client_name } : {}),
    ...(typeof display.logo_uri === 'string' ? { logo_uri: display.logo_uri } : {}),
    vp_formats_supported: VP_FORMATS_SUPPORTED,
    ...(options.encryptionPublicJwk
      ? {
          jwks: { keys: [options.encryptionPublicJwk] },
          encrypted_response_enc_values_supported: ENCRYPTED_RESPONSE_ENC_VALUES,
        }
      : {}),
  };
}

export interface BuildRequestObjectOptions {
  clientId: string;
  responseMode: ResponseMode;
  nonce: string;
  /** Redirect modes only: the OAuth `state` (the session's payloadState). */
  state: string;
  /** Redirect modes only. */
  responseUri?: string;
  dcqlQuery: Record<string, unknown>;
  clientMetadata: Record<string, unknown>;
  /** base64url-encoded transaction data objects, exactly as stored. */
  transactionData?: string[] | null;
  /** DC API modes only. */
  expectedOrigins?: string[] | null;
  /** Echoed from the wallet's POST to the request_uri (OpenID4VP 1.0 §5.10). */
  walletNonce?: string;
  /**
   * Attestations about the verifier (OpenID4VP 1.0 §5.1): its registration certificate, as judged
   * when the session was created. In the payload of by-reference and DC API signed requests; a
   * multi-signed DC API request carries it in each signature's protected header instead (A.3.2.2).
   */
  verifierInfo?: VerifierInfoAttestation[] | null;
  now: Date;
  expiresAt: Date;
}

/**
 * The claims of a signed request object. Redirect modes carry `response_uri`
 * and `state`; DC API requests carry `expected_origins` instead and have no
 * `response_uri`, `state` or `request_uri_method` (OpenID4VP 1.0 Appendix A.3.2).
 */
export function buildRequestObject(options: BuildRequestObjectOptions): JWTPayload {
  const dcApi = isDcApiMode(options.responseMode);
  if (isEncryptedMode(options.responseMode) && !options.clientMetadata.jwks)
    throw new Error('encrypted response modes need the session encryption key');
  return {
    aud: SELF_ISSUED_AUDIENCE,
    iat: Math.floor(options.now.getTime() / 1000),
    exp: Math.floor(options.expiresAt.getTime() / 1000),
    client_id: options.clientId,
    response_type: 'vp_token',
    response_mode: options.responseMode,
    nonce: options.nonce,
    dcql_query: options.dcqlQuery,
    client_metadata: options.clientMetadata,
    ...(dcApi
      ? { expected_origins: options.expectedOrigins ?? [] }
      : { response_uri: options.responseUri, state: options.state }),
    ...(options.transactionData && options.transactionData.length > 0
      ? { transaction_data: options.transactionData }
      : {}),
    ...(options.verifierInfo && options.verifierInfo.length > 0 ? { verifier_info: options.verifierInfo } : {}),
    ...(options.walletNonce ? { wallet_nonce: options.walletNonce } : {}),
  };
}

/**
 * The URI a QR code or same-device link carries (OpenID4VP 1.0 §5.10): the
 * request is passed by reference and fetched with POST, so the wallet may send
 * its metadata and a `wallet_nonce`.
 */
export function buildAuthorizationRequestUri(options: { clientId: string; requestUri: string }): string {
  const params = new URLSearchParams({
    client_id: options.clientId,
    request_uri: options.requestUri,
    request_uri_method: 'post',
  });
  return `openid4vp://?${params.toString()}`;
}
