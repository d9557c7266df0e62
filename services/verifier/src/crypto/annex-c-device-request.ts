import { Encoder, Tag } from 'cbor-x';
import type { PlannedDocRequest } from '../domain/device-request-plan.js';
import { signReaderAuth, type ReaderAuthKey } from './reader-auth.js';

const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });

/**
 * DeviceRequest version: "1.0", with a ReaderAuth per DocRequest, as Annex C
 * and the deployed wallets use it (the public captures of multipaz's and
 * MATTR's verifiers, and Apple's documentation, show "1.0"; "1.1" adds
 * DeviceRequestInfo and ReaderAuthAll, which nothing here needs).
 */
export const DEVICE_REQUEST_VERSION = '1.0';

/** CBOR of an ItemsRequest `{ docType, nameSpaces }` (ISO/IEC 18013-5 §8.3.2.1.2.1). */
export function encodeItemsRequest(docRequest: Pick<PlannedDocRequest, 'docType' | 'nameSpaces'>): Uint8Array {
  return new Uint8Array(
    cbor.encode(
      new Map<string, unknown>([
        ['docType', docRequest.docType],
        ['nameSpaces', docRequest.nameSpaces],
      ]),
    ),
  );
}

/**
 * `data.deviceRequest` of an `org-iso-mdoc` request: the base64url CBOR
 * DeviceRequest, one DocRequest per planned credential query in order, each
 * with its ItemsRequest (tag 24) and a ReaderAuth over the Annex C
 * SessionTranscript of this request's EncryptionInfo and origin.
 */
export function buildDeviceRequest(options: {
  docRequests: readonly PlannedDocRequest[];
  /** `buildAnnexCSessionTranscript` of this request's EncryptionInfo and the session's one origin. */
  sessionTranscript: Uint8Array;
  readerAuthKey: ReaderAuthKey;
}): string {
  if (options.docRequests.length === 0) throw new Error('a DeviceRequest needs at least one DocRequest');
  const docRequests = options.docRequests.map((docRequest) => {
    const itemsRequest = encodeItemsRequest(docRequest);
    return new Map<string, unknown>([
      ['itemsRequest', new Tag(Buffer.from(itemsRequest), 24)],
      [
        'readerAuth',
        signReaderAuth({ key: options.readerAuthKey, sessionTranscript: options.sessionTranscript, itemsRequest }),
      ],
    ]);
  });
  const deviceRequest = new Map<string, unknown>([
    ['version', DEVICE_REQUEST_VERSION],
    ['docRequests', docRequests],
  ]);
  return Buffer.from(cbor.encode(deviceRequest)).toString('base64url');
}
