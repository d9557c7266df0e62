/** A decoded disclosure: `[salt, name, value]` (object property) or `[salt, value]` (array element), with its digest. */
export interface DisclosureEntry {
  digest: string;
  /** Present for object-property disclosures. */
  name?: string;
  value: unknown;
}

/**
 * Claims SD-JWT VC (§3.2.2) says an issuer MUST NOT make selectively
 * disclosable: what the credential is, who issued it, when it is valid, whose
 * key it is bound to and where its status is. Disclosed, they would be the
 * holder's to withhold — a credential whose `exp` is a Disclosure looks
 * unexpiring to a verifier that is not shown it.
 */
export const NON_DISCLOSABLE_CLAIMS: ReadonlySet<string> = new Set([
  'iss',
  'nbf',
  'exp',
  'cnf',
  'vct',
  'vct#integrity',
  'status',
]);

export interface CheckDisclosuresOptions {
  /** The issuer-signed payload. */
  payload: Record<string, unknown>;
  disclosures: DisclosureEntry[];
}

/**
 * The processing rules of RFC 9901 §7.1 that SD-JWT libraries tend to skip: a
 * digest may appear only once, every disclosure must be referenced (from the
 * payload or from another referenced disclosure), object-property disclosures
 * only from `_sd` and array-element disclosures only from `{"...": digest}`,
 * and a disclosed name must be neither `_sd`/`...` nor already present. A
 * top-level Disclosure of a registered claim that must stay in the signed
 * payload (`NON_DISCLOSABLE_CLAIMS`) is refused too: the credential was
 * issued against SD-JWT VC. (A withheld Disclosure cannot be seen: a payload
 * without `exp` is then a credential without expiry, which SD-JWT VC allows.)
 * Returns the first problem, or undefined.
 */
export function checkDisclosures(options: CheckDisclosuresOptions): string | undefined {
  const byDigest = new Map<string, DisclosureEntry>();
  for (const disclosure of options.disclosures) {
    if (byDigest.has(disclosure.digest)) return 'the same disclosure is presented twice';
    byDigest.set(disclosure.digest, disclosure);
  }
  const referenced = new Set<string>();

  const reference = (digest: unknown, kind: 'object' | 'array'): DisclosureEntry | string | undefined => {
    if (typeof digest !== 'string') return 'a digest is not a string';
    if (referenced.has(digest)) return `digest ${digest} appears more than once`;
    referenced.add(digest);
    const disclosure = byDigest.get(digest);
    if (!disclosure) return undefined;
    if (kind === 'object' && disclosure.name === undefined)
      return 'an array-element disclosure is referenced from an _sd array';
    if (kind === 'array' && disclosure.name !== undefined)
      return 'an object-property disclosure is referenced from an array';
    return disclosure;
  };

  const walk = (node: unknown, topLevel = false): string | undefined => {
    if (Array.isArray(node)) {
      for (const element of node) {
        if (isObject(element) && Object.keys(element).length === 1 && '...' in element) {
          const found = reference(element['...'], 'array');
          if (typeof found === 'string') return found;
          if (found) {
            const problem = walk(found.value);
            if (problem) return problem;
          }
          continue;
        }
        const problem = walk(element);
        if (problem) return problem;
      }
      return undefined;
    }
    if (!isObject(node)) return undefined;
    if ('...' in node) return 'an object has a "..." member outside an array element';
    for (const [key, value] of Object.entries(node)) {
      if (key === '_sd') continue;
      const problem = walk(value);
      if (problem) return problem;
    }
    if (node._sd === undefined) return undefined;
    if (!Array.isArray(node._sd)) return '_sd is not an array';
    const disclosedNames = new Set<string>();
    for (const digest of node._sd) {
      const found = reference(digest, 'object');
      if (typeof found === 'string') return found;
      if (!found) continue;
      const name = found.name!;
      if (name === '_sd' || name === '...') return `a disclosure uses the reserved claim name "${name}"`;
      if (topLevel && NON_DISCLOSABLE_CLAIMS.has(name))
        return `the registered claim "${name}" is a Disclosure, but it must be in the issuer-signed payload`;
      if (name in node || disclosedNames.has(name)) return `the disclosed claim "${name}" already exists`;
      disclosedNames.add(name);
      const problem = walk(found.value);
      if (problem) return problem;
    }
    return undefined;
  };

  const problem = walk(options.payload, true);
  if (problem) return problem;
  for (const disclosure of options.disclosures) {
    if (!referenced.has(disclosure.digest))
      return `disclosure ${disclosure.name !== undefined ? `"${disclosure.name}" ` : ''}is not referenced by the issuer-signed payload`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
