import { DataItem, DeviceSignedDocument, type IssuerSignedDocument } from '@auth0/mdl';
import { cborArray, cborEncodedDataItem, cborTextString } from './cbor-heads.js';
import { importCosePublicKey } from './cose-key.js';
import { verifyCoseSign1SignatureInPool } from './cose-sign1.js';
import { coseSign1OfParsed } from './mdoc-cose-sign1.js';

// Row 13 for an mdoc (ISO/IEC 18013-5 §9.1.3): the device signature over DeviceAuthenticationBytes
// built from the OpenID4VP 1.0 SessionTranscript, by the device key the MSO names — imported once,
// here, and verified with node:crypto (what @auth0/mdl's Verifier did with jose and cose-kit).

const DEVICE_AUTHENTICATION = cborTextString('DeviceAuthentication');

export type DeviceSignatureOutcome =
  | { kind: 'signed' }
  /** The document carries no deviceSigned at all: acceptable only without required holder binding. */
  | { kind: 'unsigned' }
  | { kind: 'invalid'; reason: string };

export interface CheckMdocDeviceSignatureOptions {
  document: IssuerSignedDocument;
  /** The SessionTranscript's CBOR bytes. */
  sessionTranscript: Uint8Array;
}

export async function checkMdocDeviceSignature(
  options: CheckMdocDeviceSignatureOptions,
): Promise<DeviceSignatureOutcome> {
  const { document } = options;
  if (!(document instanceof DeviceSignedDocument)) return { kind: 'unsigned' };
  const { deviceAuth, nameSpaces } = document.deviceSigned;
  if (deviceAuth.deviceMac)
    return { kind: 'invalid', reason: 'MAC device authentication is not accepted (OpenID4VP has no reader key)' };
  const signature = deviceAuth.deviceSignature;
  if (!signature) return { kind: 'invalid', reason: 'the device authentication holds no deviceSignature' };
  const deviceKey = document.issuerSigned.issuerAuth.decodedPayload.deviceKeyInfo?.deviceKey;
  if (!deviceKey) return { kind: 'invalid', reason: 'the MSO names no device key' };
  try {
    const sign1 = coseSign1OfParsed(
      signature,
      deviceAuthenticationBytes(options.sessionTranscript, document.docType, nameSpaces),
    );
    await verifyCoseSign1SignatureInPool(sign1, importCosePublicKey(deviceKey), 'device');
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof Error ? error.message : 'the device signature is invalid' };
  }
  return { kind: 'signed' };
}

/**
 * DeviceAuthenticationBytes = #6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType,
 * DeviceNameSpacesBytes]): the transcript as the service built it (its bytes spliced in), the
 * device namespaces in the tag-24 encoding @auth0/mdl's parse gives them back in.
 */
function deviceAuthenticationBytes(
  sessionTranscript: Uint8Array,
  docType: string,
  nameSpaces: Record<string, Record<string, unknown>>,
): Uint8Array {
  const asMaps = new Map(
    Object.entries(nameSpaces).map(([namespace, items]) => [namespace, new Map(Object.entries(items))]),
  );
  const deviceNameSpaces = DataItem.fromData(asMaps).buffer;
  const deviceAuthentication = cborArray([
    DEVICE_AUTHENTICATION,
    sessionTranscript,
    cborTextString(docType),
    cborEncodedDataItem(deviceNameSpaces),
  ]);
  return cborEncodedDataItem(deviceAuthentication);
}
