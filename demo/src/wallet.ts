import 'reflect-metadata';
import { createHash, randomBytes, type webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  CompactEncrypt,
  compactVerify,
  decodeProtectedHeader,
  flattenedVerify,
  importJWK,
  importX509,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { IssuedCredential } from './issuer.js';

/** What the demo wallet reads from a verified request object (OpenID4VP 1.0 §5). */
export interface AuthorizationRequest extends JWTPayload {
  client_id: string;
  nonce: string;
  state?: string;
  /** Absent over the Digital Credentials API (the browser carries the answer). */
  response_uri: string;
  response_mode: string;
  dcql_query: { credentials: Array<{ id: string; format: string; claims?: Array<{ path: string[] }> }> };
  client_metadata?: {
    client_name?: string;
    jwks?: { keys: JWK[] };
    encrypted_response_enc_values_supported?: string[];
  };
  /** DC API requests: the origins the request may be used from (OpenID4VP 1.0 Appendix A.2). */
  expected_origins?: string[];
}

/**
 * Fetches the request object named by an `openid4vp://` URI (POST, as
 * `request_uri_method=post` asks), and checks it as a wallet must: the `x5c` leaf
 * chains to the trusted CA, the JWS verifies with the leaf, and `client_id` is the
 * leaf's hash (`x509_hash`) or its DNS name (`x509_san_dns`).
 */
export async function fetchAuthorizationRequest(
  authorizationRequestUri: string,
  trustedCaPem: string,
): Promise<AuthorizationRequest> {
  const params = new URL(authorizationRequestUri).searchParams;
  const requestUri = params.get('request_uri');
  const clientId = params.get('client_id');
  if (!requestUri || !clientId) throw new Error('the authorization request URI has no request_uri or client_id');
  const walletNonce = randomBytes(16).toString('base64url');
  const response = await fetch(requestUri, {
    method: params.get('request_uri_method') === 'post' ? 'POST' : 'GET',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/oauth-authz-req+jwt' },
    body: new URLSearchParams({ wallet_nonce: walletNonce }).toString(),
  });
  if (!response.ok)
    throw new Error(`fetching the request object answered ${response.status}: ${await response.text()}`);
  const claims = await verifySignedRequest(await response.text(), trustedCaPem, clientId);
  if (claims.wallet_nonce !== undefined && claims.wallet_nonce !== walletNonce)
    throw new Error('wallet_nonce was not echoed');
  return claims;
}

/**
 * Checks a signed request object as a wallet must: the `x5c` leaf chains to the
 * trusted CA, the JWS verifies with the leaf, and `client_id` (when the caller knows
 * the one it expects) is the leaf's hash (`x509_hash`) or its DNS name (`x509_san_dns`).
 */
async function verifySignedRequest(
  jws: string,
  trustedCaPem: string,
  expectedClientId?: string,
): Promise<AuthorizationRequest> {
  const header = decodeProtectedHeader(jws);
  const leaf = await trustedLeaf(header, trustedCaPem);
  const { payload } = await compactVerify(jws, await importX509(leaf.toString('pem'), String(header.alg)));
  const claims = JSON.parse(new TextDecoder().decode(payload)) as AuthorizationRequest;
  const clientId = expectedClientId ?? claims.client_id;
  if (claims.client_id !== clientId || !namesLeaf(clientId, leaf))
    throw new Error('client_id does not match the signing certificate');
  return claims;
}

/** The `x5c` leaf of a request signature's header, when it is an oauth-authz-req+jwt chaining to the trusted CA. */
async function trustedLeaf(
  header: { x5c?: string[]; typ?: string },
  trustedCaPem: string,
): Promise<x509.X509Certificate> {
  const [leafBase64] = header.x5c ?? [];
  if (!leafBase64 || header.typ !== 'oauth-authz-req+jwt')
    throw new Error('the request object is not an x5c-signed oauth-authz-req+jwt');
  const leaf = new x509.X509Certificate(Buffer.from(leafBase64, 'base64'));
  const ca = new x509.X509Certificate(trustedCaPem);
  if (!(await leaf.verify({ publicKey: ca.publicKey, date: new Date() })))
    throw new Error('the request signer does not chain to the trusted CA');
  return leaf;
}

/** `x509_san_dns:` with the leaf's name, or `x509_hash:` with its hash. */
function namesLeaf(clientId: string, leaf: x509.X509Certificate): boolean {
  const expectedHash = `x509_hash:${createHash('sha256').update(Buffer.from(leaf.rawData)).digest('base64url')}`;
  return clientId.startsWith('x509_san_dns:') || clientId === expectedHash;
}

/**
 * A multi-signed request (OpenID4VP 1.0 Appendix A.3.2, JWS JSON serialization): the
 * wallet needs one signature it can trust, here one whose `x5c` chains to the trusted
 * CA; its protected header carries the `client_id` (and `verifier_info`), the payload
 * the rest of the request.
 */
async function verifyMultiSignedRequest(
  request: { payload: string; signatures: Array<{ protected: string; signature: string }> },
  trustedCaPem: string,
): Promise<AuthorizationRequest> {
  for (const signature of request.signatures) {
    const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString('utf8')) as {
      alg: string;
      typ?: string;
      x5c?: string[];
      client_id?: string;
    };
    if (!header.x5c) continue;
    const leaf = await trustedLeaf(header, trustedCaPem);
    const { payload } = await flattenedVerify(
      { protected: signature.protected, payload: request.payload, signature: signature.signature },
      await importX509(leaf.toString('pem'), header.alg),
    );
    if (!header.client_id || !namesLeaf(header.client_id, leaf))
      throw new Error('client_id does not match the signing certificate');
    return { ...(JSON.parse(new TextDecoder().decode(payload)) as AuthorizationRequest), client_id: header.client_id };
  }
  throw new Error('no signature of the request chains to the trusted CA');
}

/** What a page hands the browser: one request per protocol (OpenID4VP 1.0 Appendix A, ISO/IEC 18013-7 Annex C). */
export type DcApiRequest =
  | { protocol: 'openid4vp-v1-signed'; data: { request: string } }
  | { protocol: 'openid4vp-v1-unsigned'; data: Record<string, unknown> }
  | {
      protocol: 'openid4vp-v1-multisigned';
      data: { request: { payload: string; signatures: Array<{ protected: string; signature: string }> } };
    }
  | { protocol: 'org-iso-mdoc'; data: { deviceRequest: string; encryptionInfo: string } };

/**
 * Reads an OpenID4VP request handed over the Digital Credentials API as a wallet must
 * (OpenID4VP 1.0 Appendix A): a signed one (compact or multi-signed) by its signature,
 * as for a request by reference, and the calling origin among its `expected_origins`;
 * an unsigned one as it is, its client being the origin itself.
 */
export async function readDcApiRequest(options: {
  request: Exclude<DcApiRequest, { protocol: 'org-iso-mdoc' }>;
  origin: string;
  trustedCaPem: string;
}): Promise<AuthorizationRequest> {
  const { request } = options;
  if (request.protocol === 'openid4vp-v1-unsigned') {
    const { client_id: _ignored, ...parameters } = request.data;
    return { ...(parameters as unknown as AuthorizationRequest), client_id: `origin:${options.origin}` };
  }
  const verified =
    request.protocol === 'openid4vp-v1-signed'
      ? await verifySignedRequest(request.data.request, options.trustedCaPem)
      : await verifyMultiSignedRequest(request.data.request, options.trustedCaPem);
  if (!verified.expected_origins?.includes(options.origin))
    throw new Error(`the request is not meant for the origin ${options.origin}`);
  return verified;
}

/** Builds the SD-JWT VC presentation the query asks for: the requested disclosures and a KB-JWT. */
export async function presentSdJwtVc(options: {
  request: AuthorizationRequest;
  credential: IssuedCredential;
  holderKey: webcrypto.CryptoKey;
  /** Over the DC API the KB-JWT's audience is `origin:<origin>` (OpenID4VP 1.0 Appendix B.3.6), else the client_id. */
  origin?: string;
}): Promise<Record<string, string[]>> {
  const query = options.request.dcql_query.credentials[0]!;
  const requested = (query.claims ?? []).map((claim) => String(claim.path[0]));
  const disclosures = requested.map((name) => options.credential.disclosures.get(name)).filter((d): d is string => !!d);
  const presented = `${[options.credential.issuerJwt, ...disclosures].join('~')}~`;
  const keyBinding = await new SignJWT({
    nonce: options.request.nonce,
    sd_hash: createHash('sha256').update(presented).digest('base64url'),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .setAudience(options.origin ? `origin:${options.origin}` : options.request.client_id)
    .setIssuedAt()
    .sign(options.holderKey);
  return { [query.id]: [`${presented}${keyBinding}`] };
}

/** Posts a `direct_post` response and returns the verifier's answer. */
export async function postResponse(
  request: AuthorizationRequest,
  vpToken: Record<string, string[]>,
): Promise<{ status: number; body: unknown }> {
  const form = new URLSearchParams({
    vp_token: JSON.stringify(vpToken),
    ...(request.state ? { state: request.state } : {}),
  });
  const response = await fetch(request.response_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Encrypts the response for a `dc_api.jwt` request (OpenID4VP 1.0 §8.3): a JWE with
 * `alg` ECDH-ES to the request's `client_metadata.jwks` key (its `kid` named), `enc`
 * the first of the verifier's `encrypted_response_enc_values_supported` (A128GCM when
 * it names none), no compression. What the browser returns as the credential's `data`.
 */
export async function encryptDcApiResponse(
  request: AuthorizationRequest,
  vpToken: Record<string, string[]>,
): Promise<{ response: string }> {
  const jwk = request.client_metadata?.jwks?.keys.find((key) => key.use === undefined || key.use === 'enc');
  if (!jwk) throw new Error('the request has no encryption key in client_metadata.jwks');
  const enc = request.client_metadata?.encrypted_response_enc_values_supported?.[0] ?? 'A128GCM';
  if (enc !== 'A128GCM' && enc !== 'A256GCM') throw new Error(`the demo wallet cannot encrypt with ${enc}`);
  const response = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ vp_token: vpToken })))
    .setProtectedHeader({ alg: 'ECDH-ES', enc, ...(jwk.kid ? { kid: jwk.kid } : {}) })
    .encrypt(await importJWK(jwk, 'ECDH-ES'));
  return { response };
}

/**
 * The demo wallet's whole answer to a Digital Credentials API request from `origin`:
 * read and check the request, present the credential for that origin, encrypt the
 * response for `dc_api.jwt` (plain `{ vp_token }` for `dc_api`).
 */
export async function answerDcApiRequest(options: {
  request: Exclude<DcApiRequest, { protocol: 'org-iso-mdoc' }>;
  origin: string;
  trustedCaPem: string;
  credential: IssuedCredential;
  holderKey: webcrypto.CryptoKey;
}): Promise<Record<string, unknown>> {
  const request = await readDcApiRequest(options);
  const vpToken = await presentSdJwtVc({
    request,
    credential: options.credential,
    holderKey: options.holderKey,
    origin: options.origin,
  });
  if (request.response_mode === 'dc_api.jwt') return encryptDcApiResponse(request, vpToken);
  if (request.response_mode === 'dc_api') return { vp_token: vpToken };
  throw new Error(`${request.response_mode} is not a Digital Credentials API response mode`);
}
