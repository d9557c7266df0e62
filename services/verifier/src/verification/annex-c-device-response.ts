import { Decoder, Encoder } from 'cbor-x';
import type { PlannedDocRequest } from '../domain/device-request-plan.js';

const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });
const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });

/** DeviceResponse status OK (ISO/IEC 18013-5 §8.3.2.1.2.3); 10–12 are the wallet's errors. */
const STATUS_OK = 0;

export type AnnexCVpTokenResult =
  /** `vp_token` as the OpenID4VP engine reads it: credential query id → one base64url DeviceResponse. */
  | { ok: true; vpToken: Record<string, string[]> }
  /** The DeviceResponse cannot stand for the request: `INVALID_VP_TOKEN`. */
  | { ok: false; message: string };

/**
 * Turns the DeviceResponse of an `org-iso-mdoc` answer into the `vp_token` the
 * verification engine checks, so Annex C answers go through every row of the
 * verification table like OpenID4VP mdoc answers. Each document is matched to
 * the first DocRequest of its doctype not yet answered (DocRequests follow the
 * credential queries in order) and becomes a DeviceResponse of its own: every
 * signature of a document (MSO, device signature over the transcript) covers
 * byte strings inside it, which are carried over unchanged, so re-encoding
 * the envelope changes nothing that is verified. A DocRequest without a
 * document is simply absent, as a credential the wallet did not present; the
 * DCQL check decides whether that is acceptable.
 */
export function annexCVpToken(options: {
  deviceResponse: Uint8Array;
  docRequests: readonly PlannedDocRequest[];
}): AnnexCVpTokenResult {
  const fail = (message: string): AnnexCVpTokenResult => ({ ok: false, message });
  let response: unknown;
  try {
    response = decoder.decode(options.deviceResponse);
  } catch {
    return fail('The DeviceResponse is not CBOR.');
  }
  if (!(response instanceof Map)) return fail('The DeviceResponse is not a CBOR map.');
  const version = response.get('version');
  const status = response.get('status');
  const documents = response.get('documents') ?? [];
  if (typeof version !== 'string' || !/^1\.\d+$/.test(version)) return fail('The DeviceResponse has no version 1.x.');
  if (status !== STATUS_OK) return fail(`The wallet answered with DeviceResponse status ${String(status)}.`);
  if (!Array.isArray(documents)) return fail('The DeviceResponse documents are not an array.');
  if (documents.length === 0) return fail('The DeviceResponse holds no document.');

  const answered = new Set<number>();
  const entries: Array<[string, string[]]> = [];
  for (const [index, document] of documents.entries()) {
    const docType = document instanceof Map ? document.get('docType') : undefined;
    if (typeof docType !== 'string') return fail(`Document ${index} of the DeviceResponse has no docType.`);
    const requestIndex = options.docRequests.findIndex(
      (request, position) => request.docType === docType && !answered.has(position),
    );
    if (requestIndex === -1) return fail(`The DeviceResponse holds a ${docType} document that was not requested.`);
    answered.add(requestIndex);
    const single = new Map<string, unknown>([
      ['version', version],
      ['documents', [document]],
      ['status', STATUS_OK],
    ]);
    entries.push([
      options.docRequests[requestIndex]!.credentialQueryId,
      [Buffer.from(cbor.encode(single)).toString('base64url')],
    ]);
  }
  // fromEntries defines own properties: a query id such as `__proto__` stays a key.
  return { ok: true, vpToken: Object.fromEntries(entries) };
}
