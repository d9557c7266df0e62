import type { x509 } from './x509.js';

// Names of the certificates this service issues. Each attribute is its own RDN
// (RFC 5280 recommends it; a multi-valued RDN is a SET OF that must be in DER
// order, and strict parsers — Python's `cryptography`, Rust's x509 crates — refuse
// one that is not, so a wallet in those stacks could not even parse the chain).

/** The platform CA's subject: O, then CN, one attribute per RDN. */
export function platformCaName(commonName: string): x509.JsonName {
  return [{ O: ['Tessera'] }, { CN: [commonName] }];
}

/** A request-signing leaf's subject: O (the organisation), OU, CN (the host), one attribute per RDN. */
export function requestSigningLeafName(options: { host: string; orgId: string }): x509.JsonName {
  return [{ O: [options.orgId.slice(0, 64)] }, { OU: ['OpenID4VP request signing'] }, { CN: [options.host] }];
}

/**
 * True when a name has an RDN with more than one attribute: the shape this
 * service issued before (`CN=… + O=…`), re-issued at start and on use.
 */
export function hasMultiValuedRdn(name: x509.Name): boolean {
  return name.toJSON().some((rdn) => Object.values(rdn).reduce((count, values) => count + values.length, 0) > 1);
}
