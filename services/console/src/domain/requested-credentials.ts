/**
 * What a DCQL query asks of the holder, as a wallet would put it: per credential query
 * its type, the claims (marked when the verifier says it will keep them), whether the
 * holder must prove the credential is theirs, and the alternatives of credential sets.
 * Lenient: it reads whatever is there, so a half-typed draft still previews.
 */
export interface RequestedCredential {
  id: string;
  format: string;
  /** vct values or the doctype. */
  types: string[];
  claims: Array<{ path: string; retained: boolean }>;
  /** `require_cryptographic_holder_binding` (default true in DCQL). */
  holderBinding: boolean;
}

export interface RequestedCredentials {
  credentials: RequestedCredential[];
  /** Each set: its options (lists of credential ids) and whether it is required. */
  sets: Array<{ options: string[][]; required: boolean }>;
}

export function requestedCredentials(query: Record<string, unknown> | undefined): RequestedCredentials {
  const credentials = Array.isArray(query?.credentials) ? (query.credentials as unknown[]) : [];
  const sets = Array.isArray(query?.credential_sets) ? (query.credential_sets as unknown[]) : [];
  return {
    credentials: credentials.filter(isObject).map((credential) => {
      const meta = isObject(credential.meta) ? credential.meta : {};
      const types = Array.isArray(meta.vct_values)
        ? meta.vct_values.map(String)
        : typeof meta.doctype_value === 'string'
          ? [meta.doctype_value]
          : [];
      const claims = Array.isArray(credential.claims) ? credential.claims.filter(isObject) : [];
      return {
        id: typeof credential.id === 'string' ? credential.id : '?',
        format: typeof credential.format === 'string' ? credential.format : '?',
        types,
        claims: claims.map((claim) => ({
          path: Array.isArray(claim.path)
            ? claim.path.map((part) => (part === null ? '*' : String(part))).join(' › ')
            : '?',
          retained: claim.intent_to_retain === true,
        })),
        holderBinding: credential.require_cryptographic_holder_binding !== false,
      };
    }),
    sets: sets.filter(isObject).map((set) => ({
      options: Array.isArray(set.options)
        ? set.options.filter(Array.isArray).map((option) => (option as unknown[]).map(String))
        : [],
      required: set.required !== false,
    })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
