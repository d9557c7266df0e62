import { createHash } from 'node:crypto';
import { Encoder } from 'cbor-x';

// Plain CBOR, as session-transcript.ts: byte strings untagged, arrays as arrays.
const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });

export interface BuildAnnexCSessionTranscriptOptions {
  /** The base64url EncryptionInfo exactly as the request carried it (the string, not its decoding). */
  encryptionInfo: string;
  /** The origin the browser reported, serialised as the browser does (no `origin:` prefix). */
  origin: string;
}

/**
 * The SessionTranscript of ISO/IEC 18013-7:2025 Annex C (`org-iso-mdoc`):
 * `[null, null, ["dcapi", SHA-256(CBOR([base64url EncryptionInfo, origin]))]]`,
 * returned as its plain CBOR encoding. That encoding is the HPKE `info` of the
 * EncryptedResponse (not the tag-24 form), and the structure the device
 * signature (DeviceAuthentication) and each ReaderAuth (ReaderAuthentication)
 * embed. `@auth0/mdl` takes it wrapped in tag 24 (`encodeTranscriptAsDataItem`).
 */
export function buildAnnexCSessionTranscript(options: BuildAnnexCSessionTranscriptOptions): Uint8Array {
  const dcapiInfoHash = createHash('sha256')
    .update(cbor.encode([options.encryptionInfo, options.origin]))
    .digest();
  return new Uint8Array(cbor.encode([null, null, ['dcapi', dcapiInfoHash]]));
}
