import 'reflect-metadata';
import { createHash, randomBytes, type webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { compactVerify, decodeProtectedHeader, importX509, SignJWT, type JWTPayload } from 'jose';
import type { IssuedCredential } from './issuer.js';

/** What the demo wallet reads from a verified request object (OpenID4VP 1.0 §5). */
export interface AuthorizationRequest extends JWTPayload {
  client_id: string;
  nonce: string;
  state?: string;
  response_uri: string;
  response_mode: string;
  dcql_query: { credentials: Array<{ id: string; format: string; claims?: Array<{ path: string[] }> }> };
  client_metadata?: { client_name?: string };
}

/**
 * Fetches the request object named by an `openid4vp://` URI (POST, as
 * `request_uri_method=post` asks), and checks it as a wallet must: the `x5c` leaf
 * chains to the trusted CA, the JWS verifies with the leaf, and `client_id` is the
 * leaf's hash (`x509_hash`) or its DNS name (`x509_san_dns`).
 */
export async function fetchAuthorizationRequest(authorizationRequestUri: string, trustedCaPem: string): Promise<AuthorizationRequest> {
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
  if (!response.ok) throw new Error(`fetching the request object answered ${response.status}: ${await response.text()}`);
  const jws = await response.text();
  const header = decodeProtectedHeader(jws);
  const [leafBase64] = header.x5c ?? [];
  if (!leafBase64 || header.typ !== 'oauth-authz-req+jwt') throw new Error('the request object is not an x5c-signed oauth-authz-req+jwt');
  const leaf = new x509.X509Certificate(Buffer.from(leafBase64, 'base64'));
  const ca = new x509.X509Certificate(trustedCaPem);
  if (!(await leaf.verify({ publicKey: ca.publicKey, date: new Date() }))) throw new Error('the request signer does not chain to the trusted CA');
  const { payload } = await compactVerify(jws, await importX509(leaf.toString('pem'), String(header.alg)));
  const claims = JSON.parse(new TextDecoder().decode(payload)) as AuthorizationRequest;
  const expectedHash = `x509_hash:${createHash('sha256').update(Buffer.from(leaf.rawData)).digest('base64url')}`;
  if (claims.client_id !== clientId || (!clientId.startsWith('x509_san_dns:') && clientId !== expectedHash)) {
    throw new Error('client_id does not match the signing certificate');
  }
  if (claims.wallet_nonce !== undefined && claims.wallet_nonce !== walletNonce) throw new Error('wallet_nonce was not echoed');
  return claims;
}

/** Builds the SD-JWT VC presentation the query asks for: the requested disclosures and a KB-JWT. */
export async function presentSdJwtVc(options: { request: AuthorizationRequest; credential: IssuedCredential; holderKey: webcrypto.CryptoKey }): Promise<Record<string, string[]>> {
  const query = options.request.dcql_query.credentials[0]!;
  const requested = (query.claims ?? []).map((claim) => String(claim.path[0]));
  const disclosures = requested.map((name) => options.credential.disclosures.get(name)).filter((d): d is string => !!d);
  const presented = `${[options.credential.issuerJwt, ...disclosures].join('~')}~`;
  const keyBinding = await new SignJWT({
    nonce: options.request.nonce,
    sd_hash: createHash('sha256').update(presented).digest('base64url'),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .setAudience(options.request.client_id)
    .setIssuedAt()
    .sign(options.holderKey);
  return { [query.id]: [`${presented}${keyBinding}`] };
}

/** Posts a `direct_post` response and returns the verifier's answer. */
export async function postResponse(request: AuthorizationRequest, vpToken: Record<string, string[]>): Promise<{ status: number; body: unknown }> {
  const form = new URLSearchParams({ vp_token: JSON.stringify(vpToken), ...(request.state ? { state: request.state } : {}) });
  const response = await fetch(request.response_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
