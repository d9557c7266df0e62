import type { JWK } from 'jose';
import { ErrorCode } from '@tessera/contracts';
import { AppError, badRequest } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import type { SessionRow } from '../db/schema.js';
import { didJwkOf } from '../crypto/did-jwk.js';
import { sanDnsNamesOf } from '../crypto/leaf-certificate.js';
import type { RequestObjectKey } from '../crypto/sign-request-object.js';
import { samePublicKey, type KeyType } from '../crypto/signing-key.js';
import { subtle, x509, type WebCryptoKey } from '../crypto/x509.js';
import { clientIdFor } from '../domain/client-id.js';
import type { RequestClientIdPrefix, ResolvedSigner } from '../domain/request-signer.js';
import { loadSigningMaterial, type SigningMaterial } from '../keys/signing-material.js';

export interface PreparedSigner {
  clientId: string;
  key: RequestObjectKey;
  /** X.509 signers: the chain fixed on the session. */
  signingChain: string[] | null;
}

function loadMaterial(ctx: VerifierContext, orgId: string, keyType: KeyType): Promise<SigningMaterial> {
  return loadSigningMaterial({ db: ctx.db, keyEncryptionKey: ctx.keyEncryptionKey, ca: ctx.ca, orgId, keyType, host: ctx.host, now: ctx.now() });
}

/** The organisation's key for a new session, and the `client_id` it yields (OpenID4VP 1.0 §5.9.3). */
export async function prepareSigner(ctx: VerifierContext, options: { orgId: string; signer: ResolvedSigner }): Promise<PreparedSigner> {
  const { signer } = options;
  const material = await loadMaterial(ctx, options.orgId, signer.keyType);
  if (signer.method === 'DID') {
    const did = didJwkOf(material.publicJwk);
    return { clientId: clientIdFor({ prefix: 'decentralized_identifier', did }), key: { privateKey: material.privateKey, alg: material.alg, kid: `${did}#0` }, signingChain: null };
  }
  const leafDer = material.chain[0]!;
  return {
    clientId: clientIdFor({ prefix: signer.clientIdPrefix, leafDer, sanDnsName: sanDnsNameFor(ctx, leafDer, signer.clientIdPrefix) }),
    key: { privateKey: material.privateKey, alg: material.alg, x5c: material.chain },
    signingChain: material.chain,
  };
}

/**
 * `x509_san_dns` needs a SAN dNSName equal to the host of response_uri, which is
 * PUBLIC_BASE_URL's host. Platform leaves always have it; an imported leaf may not.
 */
function sanDnsNameFor(ctx: VerifierContext, leafDer: string, prefix: RequestClientIdPrefix): string | undefined {
  if (prefix !== 'x509_san_dns') return undefined;
  const names = sanDnsNamesOf(new x509.X509Certificate(Buffer.from(leafDer, 'base64')));
  if (!names.includes(ctx.host)) {
    throw badRequest(`The organisation's signing certificate has no SAN dNSName ${ctx.host} (the host of the response URI), which x509_san_dns needs; use x509_hash or import a certificate for ${ctx.host}.`, [
      { path: '/requestSigner/clientIdPrefix', message: `x509_san_dns needs a certificate with SAN dNSName ${ctx.host}` },
    ]);
  }
  return ctx.host;
}

/**
 * The key to sign a session's request object with at fetch time: the
 * organisation's current key, which must still be the key the session's
 * `client_id` names (the x5c chain is the one fixed on the session).
 */
export async function signerForSession(ctx: VerifierContext, session: SessionRow): Promise<RequestObjectKey> {
  const keyType: KeyType = session.signerMethod === 'X509_ED25519' ? 'ED25519' : 'P256';
  const material = await loadMaterial(ctx, session.orgId, keyType);
  if (session.signerMethod === 'DID') {
    const did = didJwkOf(material.publicJwk);
    if (session.clientId !== `decentralized_identifier:${did}`) throw keyReplaced();
    return { privateKey: material.privateKey, alg: material.alg, kid: `${did}#0` };
  }
  const chain = session.signingChain ?? [];
  const leaf = new x509.X509Certificate(Buffer.from(chain[0] ?? '', 'base64'));
  const leafJwk = (await subtle.exportKey('jwk', (await leaf.publicKey.export()) as WebCryptoKey)) as JWK;
  if (!samePublicKey(leafJwk, material.publicJwk)) throw keyReplaced();
  return { privateKey: material.privateKey, alg: material.alg, x5c: chain };
}

function keyReplaced(): AppError {
  return new AppError(400, ErrorCode.SESSION_CLOSED, 'The organisation replaced its signing key after this session was created; start a new session.');
}
