import type { TrustListEntity } from '@tessera/contracts';
import { trustingIssuers } from './trusting-issuers.js';

type Json = Record<string, unknown>;

export interface AddTrustedAuthoritiesOptions {
  /** The query as sent to wallets (valid; without `combine`). */
  query: Json;
  /** The ecosystem list's entities (any status; only active issuers count). */
  entities: readonly TrustListEntity[];
  /** Certificates not valid at this time name no authority. */
  now: Date;
}

export type AddTrustedAuthoritiesResult = { ok: true; query: Json } | { ok: false; credentialQueryIds: string[] };

/**
 * For a session verified against an ecosystem's list: each credential query
 * gets `trusted_authorities: [{ type: "aki", values }]` (OpenID4VP 1.0
 * §6.1.1), so a wallet offers only credentials the list trusts. The values
 * name the active issuer entities allowed to issue the query's types
 * (`meta.vct_values` / `meta.doctype_value`): a CA certificate by its subject
 * key identifier (the AKI of the certificates it issues), a leaf by its
 * authority key identifier — base64url of the key identifier bytes. A query
 * that already has `aki` authorities keeps only the values both name (the
 * relying party narrows the list, never widens it); its other types are
 * refused at creation (INVALID_DCQL) and name nothing here. A query left
 * with no value fails: no wallet could answer it.
 */
export function addTrustedAuthorities(options: AddTrustedAuthoritiesOptions): AddTrustedAuthoritiesResult {
  const issuers = trustingIssuers(options.entities);
  const credentials = Array.isArray(options.query.credentials) ? (options.query.credentials as Json[]) : [];
  const unmet: string[] = [];
  const withAuthorities = credentials.map((credential) => {
    const listed = listedAuthorities(credential, issuers, options.now);
    const requested = requestedAki(credential);
    const values = requested ? listed.filter((value) => requested.has(value)) : listed;
    if (values.length === 0) unmet.push(String(credential.id));
    return { ...credential, trusted_authorities: [{ type: 'aki', values }] };
  });
  if (unmet.length > 0) return { ok: false, credentialQueryIds: unmet };
  return { ok: true, query: { ...options.query, credentials: withAuthorities } };
}

/** The key identifiers of the certificates of the issuers allowed for the query's types, in list order, without repeats. */
function listedAuthorities(credential: Json, issuers: TrustListEntity[], now: Date): string[] {
  const meta = typeof credential.meta === 'object' && credential.meta !== null ? (credential.meta as Json) : {};
  const vcts = Array.isArray(meta.vct_values)
    ? meta.vct_values.filter((value): value is string => typeof value === 'string')
    : [];
  const doctype = typeof meta.doctype_value === 'string' ? meta.doctype_value : undefined;
  const allowed = (entity: TrustListEntity) =>
    entity.allowedCredentialTypes.some((type) =>
      credential.format === 'dc+sd-jwt'
        ? type.format === 'dc+sd-jwt' && vcts.includes(type.vct)
        : credential.format === 'mso_mdoc' && type.format === 'mso_mdoc' && type.doctype === doctype,
    );
  const values = new Set<string>();
  for (const entity of issuers.filter(allowed)) {
    for (const certificate of entity.certificates) {
      if (now < new Date(certificate.notBefore) || now > new Date(certificate.notAfter)) continue;
      // A leaf without an AKI cannot be named to a wallet; it still verifies, but no `aki` value asks for it.
      const identifier = certificate.kind === 'ca' ? certificate.ski : certificate.aki;
      if (identifier && /^(?:[0-9a-f]{2})+$/.test(identifier))
        values.add(Buffer.from(identifier, 'hex').toString('base64url'));
    }
  }
  return [...values];
}

/** The `aki` values the query itself asks for, or undefined when it names no trusted authorities. */
function requestedAki(credential: Json): Set<string> | undefined {
  if (!Array.isArray(credential.trusted_authorities)) return undefined;
  const values = new Set<string>();
  for (const authority of credential.trusted_authorities as Json[]) {
    if (authority?.type === 'aki' && Array.isArray(authority.values))
      for (const value of authority.values) if (typeof value === 'string') values.add(value);
  }
  return values;
}
