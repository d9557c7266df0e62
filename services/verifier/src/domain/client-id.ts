import { createHash } from 'node:crypto';
import type { RequestClientIdPrefix } from './request-signer.js';

/** `x509_hash` value: base64url SHA-256 of the leaf certificate's DER (OpenID4VP 1.0 §5.9.3). */
export function x509HashOf(leafDerBase64: string): string {
  return createHash('sha256').update(Buffer.from(leafDerBase64, 'base64')).digest('base64url');
}

export interface ClientIdOptions {
  prefix: RequestClientIdPrefix;
  /** X.509 prefixes: the leaf's DER, base64 (x5c[0]). */
  leafDer?: string;
  /** `x509_san_dns`: the SAN dNSName used, which must be the host of response_uri. */
  sanDnsName?: string;
  /** DID prefix: the DID. */
  did?: string;
}

/** The request's `client_id`, prefix included. */
export function clientIdFor(options: ClientIdOptions): string {
  switch (options.prefix) {
    case 'x509_hash':
      return `x509_hash:${x509HashOf(required(options.leafDer, 'leafDer'))}`;
    case 'x509_san_dns':
      return `x509_san_dns:${required(options.sanDnsName, 'sanDnsName')}`;
    case 'decentralized_identifier':
      return `decentralized_identifier:${required(options.did, 'did')}`;
  }
}

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`clientIdFor: ${name} is required for this prefix`);
  return value;
}
