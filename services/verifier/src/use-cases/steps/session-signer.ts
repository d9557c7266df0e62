import type { JWK } from 'jose';
import { badRequest } from '@tessera/service-kit';
import { didJwkOf } from '../../crypto/did-jwk.js';
import { sanDnsNamesOf } from '../../crypto/leaf-certificate.js';
import type { RequestObjectKey } from '../../crypto/sign-request-object.js';
import { samePublicKey, type KeyType } from '../../crypto/signing-key.js';
import { certificatePublicKey, parseCertificateDer } from '../../crypto/parsed-certificates.js';
import type { SessionRow } from '../../db/schema.js';
import { clientIdFor } from '../../domain/client-id.js';
import type { RequestClientIdPrefix, ResolvedSigner } from '../../domain/request-signer.js';
import type { LoadSigningMaterial, SigningMaterial } from '../../state/signing-material-loader.js';

// Shared step: which key signs a session's request object, and the `client_id`
// it yields (OpenID4VP 1.0 §5.9.3): fixed at creation, checked again at each fetch.

export interface PrepareSessionSignerDeps {
  loadSigningMaterial: LoadSigningMaterial;
  /** Host of PUBLIC_BASE_URL (the host of response_uri). */
  host: string;
}

export interface PreparedSessionSigner {
  clientId: string;
  key: RequestObjectKey;
  /** X.509 signers: the chain fixed on the session. */
  signingChain: string[] | null;
}

/** The organisation's key for a new session (read, unless `material` is given), and the `client_id` it yields. */
export async function prepareSessionSigner(
  deps: PrepareSessionSignerDeps,
  input: { orgId: string; signer: ResolvedSigner; material?: SigningMaterial },
): Promise<PreparedSessionSigner> {
  const { signer } = input;
  // Given: remembered by the replica (the caller's insert checks the key row is still the one).
  const material = input.material ?? (await deps.loadSigningMaterial({ orgId: input.orgId, keyType: signer.keyType }));
  if (signer.method === 'DID') {
    const did = didJwkOf(material.publicJwk);
    return {
      clientId: clientIdFor({ prefix: 'decentralized_identifier', did }),
      key: { privateKey: material.privateKey, alg: material.alg, kid: `${did}#0` },
      signingChain: null,
    };
  }
  const leafDer = material.chain[0]!;
  return {
    clientId: clientIdFor({
      prefix: signer.clientIdPrefix,
      leafDer,
      sanDnsName: sanDnsNameFor(deps.host, leafDer, signer.clientIdPrefix),
    }),
    key: { privateKey: material.privateKey, alg: material.alg, x5c: material.chain },
    signingChain: material.chain,
  };
}

/**
 * `x509_san_dns` needs a SAN dNSName equal to the host of response_uri, which is
 * PUBLIC_BASE_URL's host. Platform leaves always have it; an imported leaf may not.
 */
function sanDnsNameFor(host: string, leafDer: string, prefix: RequestClientIdPrefix): string | undefined {
  if (prefix !== 'x509_san_dns') return undefined;
  const names = sanDnsNamesOf(parseCertificateDer(leafDer));
  if (!names.includes(host)) {
    throw badRequest(
      `The organisation's signing certificate has no SAN dNSName ${host} (the host of the response URI), which x509_san_dns needs; use x509_hash or import a certificate for ${host}.`,
      [{ path: '/requestSigner/clientIdPrefix', message: `x509_san_dns needs a certificate with SAN dNSName ${host}` }],
    );
  }
  return host;
}

/**
 * The key to sign a session's request object with at fetch time: the
 * organisation's current key, which must still be the key the session's
 * `client_id` names (the x5c chain is the one fixed on the session).
 * Undefined when the organisation replaced its key since the session was created.
 */
export async function loadSessionSigningKey(
  deps: { loadSigningMaterial: LoadSigningMaterial },
  session: SessionRow,
): Promise<RequestObjectKey | undefined> {
  const keyType: KeyType = session.signerMethod === 'X509_ED25519' ? 'ED25519' : 'P256';
  const material = await deps.loadSigningMaterial({ orgId: session.orgId, keyType });
  if (session.signerMethod === 'DID') {
    const did = didJwkOf(material.publicJwk);
    if (session.clientId !== `decentralized_identifier:${did}`) return undefined;
    return { privateKey: material.privateKey, alg: material.alg, kid: `${did}#0` };
  }
  const chain = session.signingChain ?? [];
  const leafJwk = certificatePublicKey(chain[0] ?? '').export({ format: 'jwk' }) as JWK;
  if (!samePublicKey(leafJwk, material.publicJwk)) return undefined;
  return { privateKey: material.privateKey, alg: material.alg, x5c: chain };
}
