import { createHash } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { compactVerify, decodeProtectedHeader, exportJWK, importJWK, importX509, type JWK } from 'jose';
import {
  parseOpenid4vpAuthorizationRequest,
  resolveOpenid4vpAuthorizationRequest,
  type ResolveOpenid4vpAuthorizationRequestOptions,
} from '@openid4vc/openid4vp';
import type { App } from '@tessera/service-kit';

x509.cryptoProvider.set(crypto);

/**
 * The wallet side of the tests, sharing no code with the service: the
 * independent `@openid4vc/openid4vp` library, jose for signatures, and
 * @peculiar/x509 for the chain check to the platform CA.
 */

/** A `fetch` that sends the wallet's requests to the app in process. */
export function fetchVia(app: App): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) responseHeaders.set(name, String(value));
    return new Response(response.body, { status: response.statusCode, headers: responseHeaders });
  }) as typeof fetch;
}

export interface ChainCheck {
  leaf: x509.X509Certificate;
  chain: x509.X509Certificate[];
}

/** x5c must lead to the platform CA: each link signed by the next, all valid now, the last issued by the CA; the anchor itself is not in x5c. */
export async function checkChainToCa(x5c: string[], caPem: string): Promise<ChainCheck> {
  const ca = new x509.X509Certificate(caPem);
  const chain = x5c.map((der) => new x509.X509Certificate(Buffer.from(der, 'base64')));
  if (chain.length === 0) throw new Error('empty x5c');
  const now = new Date();
  for (const [index, certificate] of chain.entries()) {
    if (now < certificate.notBefore || now > certificate.notAfter)
      throw new Error(`certificate ${index} is not valid now`);
    if (Buffer.from(certificate.rawData).equals(Buffer.from(ca.rawData)))
      throw new Error('the trust anchor must not be in x5c');
    const issuer = chain[index + 1] ?? ca;
    if (!(await certificate.verify({ publicKey: issuer.publicKey, signatureOnly: true })))
      throw new Error(`certificate ${index} is not signed by its issuer`);
  }
  if (await chain[0]!.isSelfSigned()) throw new Error('the leaf is self-signed');
  return { leaf: chain[0]!, chain };
}

/** The callbacks the wallet library resolves a request with. */
export type WalletCallbacks = ResolveOpenid4vpAuthorizationRequestOptions['callbacks'];
type VerifyJwt = WalletCallbacks['verifyJwt'];
/** The JWK type of the wallet library (its own schema type, which jose's JWK does not name). */
type SignerJwk = Extract<Awaited<ReturnType<VerifyJwt>>, { verified: true }>['signerJwk'];

/** The wallet's `verifyJwt` callback: x5c chained to the platform CA, or a did:jwk resolved offline. */
export function createVerifyJwt(caPem: string): VerifyJwt {
  return async (signer, jwt) => {
    try {
      if (signer.method === 'x5c') {
        const { leaf } = await checkChainToCa(signer.x5c, caPem);
        const key = await importX509(leaf.toString('pem'), signer.alg, { extractable: true });
        await compactVerify(jwt.compact, key);
        return { verified: true as const, signerJwk: (await exportJWK(key)) as SignerJwk };
      }
      if (signer.method === 'did' && signer.didUrl.startsWith('did:jwk:')) {
        const did = signer.didUrl.split('#')[0]!;
        const jwk = JSON.parse(Buffer.from(did.slice('did:jwk:'.length), 'base64url').toString('utf8')) as JWK;
        await compactVerify(jwt.compact, await importJWK(jwk, signer.alg));
        return { verified: true as const, signerJwk: jwk as SignerJwk };
      }
      return { verified: false as const };
    } catch {
      return { verified: false as const };
    }
  };
}

function sanNames(certificateBase64: string) {
  const certificate = new x509.X509Certificate(Buffer.from(certificateBase64, 'base64'));
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  const items = san?.names.items ?? [];
  return {
    sanDnsNames: items.filter((n) => n.type === 'dns').map((n) => n.value),
    sanUriNames: items.filter((n) => n.type === 'url').map((n) => n.value),
  };
}

export function walletCallbacks(app: App, caPem: string): WalletCallbacks {
  return {
    verifyJwt: createVerifyJwt(caPem),
    getX509CertificateMetadata: sanNames,
    hash: (data: Uint8Array, alg: string) => {
      if (alg !== 'sha-256') throw new Error(`unexpected hash ${alg}`);
      return new Uint8Array(createHash('sha256').update(data).digest());
    },
    fetch: fetchVia(app),
    // The verifier's request objects are signed, never encrypted.
    decryptJwe: async () => {
      throw new Error('the test wallet decrypts no request object');
    },
  };
}

/** A wallet scanning the QR code: parse the URI, fetch the request object by reference (POST), verify it. */
export async function resolveAsWallet(options: { app: App; caPem: string; authorizationRequestUri: string }) {
  const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: options.authorizationRequestUri });
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params,
    callbacks: walletCallbacks(options.app, options.caPem),
  });
}

/** A browser passing `dcApiRequest.data` to a wallet over the Digital Credentials API from `origin`. */
export async function resolveDcApiAsWallet(options: {
  app: App;
  caPem: string;
  data: { request: string };
  origin: string;
}) {
  const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: options.data });
  return resolveOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: parsed.params,
    origin: options.origin,
    callbacks: walletCallbacks(options.app, options.caPem),
  });
}

export function headerOf(jws: string) {
  return decodeProtectedHeader(jws);
}
