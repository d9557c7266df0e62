// The wallet of the end-to-end tests: @openid4vc/openid4vp resolves the
// request and builds (and, for redirect modes, submits) the response; jose
// encrypts; presentations come from the test issuers' helpers. It talks to the
// service over real HTTP.
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, CompactEncrypt, importJWK, type JWK } from 'jose';
import {
  createOpenid4vpAuthorizationResponse,
  parseOpenid4vpAuthorizationRequest,
  resolveOpenid4vpAuthorizationRequest,
  submitOpenid4vpAuthorizationResponse,
  type CreateOpenid4vpAuthorizationResponseOptions,
} from '@openid4vc/openid4vp';
import { presentMdoc } from '../verification/support/mdoc.js';
import { presentSdJwtVc, type IssuedSdJwtVc } from '../verification/support/sd-jwt.js';
import type { Holder } from './issuers.js';
import { createVerifyJwt, type WalletCallbacks } from './wallet.js';

type IssuerSigned = Awaited<ReturnType<typeof import('./issuers.js').issueMdl>>;

/**
 * A fetch that reaches the service over HTTP on its listening address while
 * the URLs it hands out keep the https PUBLIC_BASE_URL (which the wallet
 * library requires).
 */
export function httpFetch(publicBaseUrl: string, listenUrl: string): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.startsWith(publicBaseUrl) ? `${listenUrl}${url.slice(publicBaseUrl.length)}` : url, init);
  }) as typeof fetch;
}

const jarmServerMetadata = {
  authorization_signing_alg_values_supported: ['ES256'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
};

/** What the wallet endpoints answer: `{}`, `{ redirect_uri }` or an OAuth error. */
export interface WalletEndpointAnswer {
  redirect_uri?: string;
  error?: string;
  error_description?: string;
}

export interface WalletContext {
  caPem: string;
  fetch: typeof fetch;
}

/** What the wallet library resolves requests and builds responses with. */
type HolderCallbacks = WalletCallbacks & CreateOpenid4vpAuthorizationResponseOptions['callbacks'];

function callbacks(wallet: WalletContext): HolderCallbacks {
  return {
    verifyJwt: createVerifyJwt(wallet.caPem),
    getX509CertificateMetadata: () => ({ sanDnsNames: [], sanUriNames: [] }),
    hash: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
    fetch: wallet.fetch,
    encryptJwe: async (encryptor, data) => {
      const jwk = encryptor.publicJwk;
      const jwe = await new CompactEncrypt(new TextEncoder().encode(data))
        .setProtectedHeader({ alg: 'ECDH-ES', enc: encryptor.enc, ...(jwk.kid ? { kid: jwk.kid } : {}) })
        .encrypt(await importJWK(jwk as JWK, 'ECDH-ES'));
      return { encryptionJwk: jwk, jwe };
    },
    // Responses are encrypted (`.jwt` modes) or plain, never signed; requests are signed, never encrypted.
    signJwt: async () => {
      throw new Error('the test wallet signs no response');
    },
    decryptJwe: async () => {
      throw new Error('the test wallet decrypts no request object');
    },
  };
}

export type ResolvedRequest = Awaited<ReturnType<typeof resolveOpenid4vpAuthorizationRequest>>;

/** Scanning the QR code: parse the URI, fetch the request object by reference, verify its signature. */
export function resolveRedirectRequest(
  wallet: WalletContext,
  authorizationRequestUri: string,
): Promise<ResolvedRequest> {
  const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: authorizationRequestUri });
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params,
    callbacks: callbacks(wallet),
  });
}

/** A browser handing `dcApiRequest.data` (signed, or an unsigned request's parameters) to the wallet from `origin`. */
export function resolveDcApiRequest(
  wallet: WalletContext,
  data: Record<string, unknown>,
  origin: string,
): Promise<ResolvedRequest> {
  const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: data });
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params,
    origin,
    callbacks: callbacks(wallet),
  });
}

export interface RequestFacts {
  clientId: string;
  nonce: string;
  responseUri?: string;
  /** The verifier's encryption JWK (encrypted modes). */
  encryptionJwk?: JWK;
  responseMode: string;
}

export function requestFacts(resolved: ResolvedRequest): RequestFacts {
  const payload = resolved.authorizationRequestPayload as Record<string, unknown> & {
    client_metadata?: { jwks?: { keys: JWK[] } };
  };
  return {
    clientId: String(payload.client_id ?? ''),
    nonce: String(payload.nonce),
    ...(typeof payload.response_uri === 'string' ? { responseUri: payload.response_uri } : {}),
    ...(payload.client_metadata?.jwks?.keys[0] ? { encryptionJwk: payload.client_metadata.jwks.keys[0] } : {}),
    responseMode: String(payload.response_mode),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An SD-JWT VC presentation with a KB-JWT for this request (aud = client_id, or `origin:<origin>` over the DC API). */
export function presentPid(
  issued: IssuedSdJwtVc,
  holder: Holder,
  facts: RequestFacts,
  options: {
    origin?: string;
    reveal?: string[];
    nonce?: string;
    aud?: string;
    iat?: number;
    extraDisclosures?: string[];
    transactionDataHashes?: string[];
  } = {},
) {
  return presentSdJwtVc({
    issued,
    reveal: options.reveal ?? ['given_name', 'family_name'],
    ...(options.extraDisclosures ? { extraDisclosures: options.extraDisclosures } : {}),
    keyBinding: {
      holderKey: holder.privateKey,
      nonce: options.nonce ?? facts.nonce,
      aud: options.aud ?? (options.origin ? `origin:${options.origin}` : facts.clientId),
      iat: options.iat ?? nowSeconds() - 2,
      ...(options.transactionDataHashes ? { transactionDataHashes: options.transactionDataHashes } : {}),
    },
  });
}

/** An mdoc DeviceResponse whose device signature covers this request's OpenID4VP 1.0 handover. */
export async function presentMdl(
  issuerSigned: IssuerSigned,
  holder: Holder,
  facts: RequestFacts,
  options: { origin?: string } = {},
) {
  const encrypted = facts.responseMode.endsWith('.jwt') && facts.encryptionJwk;
  const jwkThumbprint = encrypted
    ? new Uint8Array(Buffer.from(await calculateJwkThumbprint(facts.encryptionJwk!, 'sha256'), 'base64url'))
    : undefined;
  return presentMdoc({
    issuerSigned,
    devicePrivateJwk: holder.privateJwk,
    handover: options.origin
      ? { kind: 'dc_api', origin: options.origin, nonce: facts.nonce, ...(jwkThumbprint ? { jwkThumbprint } : {}) }
      : {
          kind: 'redirect',
          clientId: facts.clientId,
          responseUri: facts.responseUri!,
          nonce: facts.nonce,
          ...(jwkThumbprint ? { jwkThumbprint } : {}),
        },
  });
}

/** The response as the wallet library builds it: plain parameters, or (`.jwt` modes) a JWE to the verifier's key. */
export async function buildResponse(
  wallet: WalletContext,
  resolved: ResolvedRequest,
  vpToken: Record<string, string[]>,
  origin?: string,
) {
  const jarm = String(resolved.authorizationRequestPayload.response_mode).endsWith('.jwt');
  return createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: resolved.authorizationRequestPayload,
    authorizationResponsePayload: { vp_token: vpToken },
    ...(origin ? { origin } : {}),
    ...(jarm ? { jarm: { encryption: { nonce: 'unused' }, serverMetadata: jarmServerMetadata } } : {}),
    callbacks: callbacks(wallet),
  });
}

/** `direct_post[.jwt]`: the wallet library posts the response to `response_uri`. */
export async function submitResponse(
  wallet: WalletContext,
  resolved: ResolvedRequest,
  built: Awaited<ReturnType<typeof buildResponse>>,
) {
  const { response } = await submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: resolved.authorizationRequestPayload as { response_uri: string },
    authorizationResponsePayload: built.authorizationResponsePayload,
    ...(built.jarm ? { jarm: { responseJwt: built.jarm.responseJwt } } : {}),
    callbacks: { fetch: wallet.fetch },
  });
  return { status: response.status, body: (await response.json()) as WalletEndpointAnswer };
}

/** What the browser returns over the DC API, as the relying party forwards it. */
export function dcApiPayload(built: Awaited<ReturnType<typeof buildResponse>>): Record<string, unknown> {
  return built.jarm ? { response: built.jarm.responseJwt } : { vp_token: built.authorizationResponsePayload.vp_token };
}
