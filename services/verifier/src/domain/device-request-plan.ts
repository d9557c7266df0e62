/**
 * What an ISO/IEC 18013-7 Annex C request asks for, derived from the session's
 * DCQL query: one ItemsRequest per credential query, in query order. A
 * DeviceRequest can say "this doctype, these elements, retained or not" and
 * nothing more, so every DCQL feature that narrows or chooses (alternatives
 * between credential sets, claim sets, value matching, several credentials per
 * query) is refused here with the part of the query that cannot be expressed.
 * `trusted_authorities` is not carried either, but it narrows only what the
 * verifier accepts, which the verification engine still enforces; it is not refused.
 */

/** One DocRequest of the DeviceRequest (ISO/IEC 18013-5 §8.3.2.1.2.1). */
export interface PlannedDocRequest {
  /** The DCQL credential query this DocRequest answers (its documents are matched back to it). */
  credentialQueryId: string;
  docType: string;
  /**
   * namespace → data element identifier → IntentToRetain (`intent_to_retain` of
   * the DCQL claim), in query order. Maps, not objects: names come from the query.
   */
  nameSpaces: Map<string, Map<string, boolean>>;
}

export type DeviceRequestPlan =
  | { ok: true; docRequests: PlannedDocRequest[] }
  /** `path` is a JSON Pointer into the DCQL query. */
  | { ok: false; path: string; message: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Plans the DeviceRequest of a (valid, as `domain/dcql.ts` checks) DCQL query.
 * The query may be the stored form with `combine`. The first part that a
 * DeviceRequest cannot express ends the plan.
 */
export function planDeviceRequest(query: unknown): DeviceRequestPlan {
  const refuse = (path: string, message: string): DeviceRequestPlan => ({ ok: false, path, message });
  if (!isObject(query)) return refuse('', 'the DCQL query must be an object');
  const credentials = query.credentials;
  if (!Array.isArray(credentials) || credentials.length === 0)
    return refuse('/credentials', 'the query names no credential');

  const sets = query.credential_sets;
  if (sets !== undefined) {
    if (!Array.isArray(sets)) return refuse('/credential_sets', 'must be an array');
    for (const [index, set] of sets.entries()) {
      const options = isObject(set) ? set.options : undefined;
      if (Array.isArray(options) && options.length > 1)
        return refuse(
          `/credential_sets/${index}/options`,
          'offers alternatives between credentials; a DeviceRequest asks for every document it lists',
        );
    }
  }

  const docRequests: PlannedDocRequest[] = [];
  for (const [index, credential] of credentials.entries()) {
    const at = `/credentials/${index}`;
    if (!isObject(credential)) return refuse(at, 'must be an object');
    if (credential.format !== 'mso_mdoc')
      return refuse(`${at}/format`, 'is not mso_mdoc; an ISO mdoc request asks for mdocs only');
    if (credential.multiple === true)
      return refuse(`${at}/multiple`, 'asks for several credentials; a DocRequest returns one document');
    if (credential.claim_sets !== undefined)
      return refuse(
        `${at}/claim_sets`,
        'offers alternatives between claims; an ItemsRequest lists one set of elements',
      );
    const meta = isObject(credential.meta) ? credential.meta : {};
    const docType = meta.doctype_value;
    if (typeof docType !== 'string' || docType === '')
      return refuse(`${at}/meta/doctype_value`, 'must name the doctype the DocRequest asks for');
    const claims = credential.claims;
    if (!Array.isArray(claims) || claims.length === 0)
      return refuse(`${at}/claims`, 'must name at least one data element; an ItemsRequest cannot be empty');

    const nameSpaces = new Map<string, Map<string, boolean>>();
    for (const [claimIndex, claim] of claims.entries()) {
      const claimAt = `${at}/claims/${claimIndex}`;
      if (!isObject(claim)) return refuse(claimAt, 'must be an object');
      if (claim.values !== undefined)
        return refuse(`${claimAt}/values`, 'matches values; an ItemsRequest cannot ask for a value');
      const path = claim.path;
      if (
        !Array.isArray(path) ||
        path.length !== 2 ||
        typeof path[0] !== 'string' ||
        typeof path[1] !== 'string' ||
        path[0] === '' ||
        path[1] === ''
      )
        return refuse(`${claimAt}/path`, 'must be [namespace, data element identifier]');
      const [namespace, element] = path as [string, string];
      const retain = claim.intent_to_retain === true;
      const elements = nameSpaces.get(namespace) ?? new Map<string, boolean>();
      nameSpaces.set(namespace, elements);
      // The same element named twice: retained if either claim says so.
      elements.set(element, (elements.get(element) ?? false) || retain);
    }
    if (typeof credential.id !== 'string') return refuse(`${at}/id`, 'must be a string');
    docRequests.push({ credentialQueryId: credential.id, docType, nameSpaces });
  }
  return { ok: true, docRequests };
}
