import { KeyObject, sign, type webcrypto } from 'node:crypto';
import { Encoder, Tag } from 'cbor-x';

// Plain CBOR (RFC 8949 preferred encoding); maps keep insertion order.
const cbor = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: false, variableMapSize: true });

/** COSE header labels and algorithm (RFC 9052 §3.1, RFC 9360 §2): alg 1, x5chain 33; ES256 is -7. */
const COSE_ALG = 1;
const COSE_X5CHAIN = 33;
const COSE_ES256 = -7;
/** CBOR array of three items (major type 4, length 3): the head of ReaderAuthentication. */
const ARRAY_OF_THREE = 0x83;

export interface ReaderAuthKey {
  /** The organisation's P-256 signing key. */
  privateKey: KeyObject | webcrypto.CryptoKey;
  /** The reader-authentication chain, DER, leaf first, without the trust anchor. */
  certificateChain: Uint8Array[];
}

/**
 * `ReaderAuthenticationBytes` (ISO/IEC 18013-5 §9.1.4):
 * `#6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes])`.
 * The transcript is spliced in as the CBOR it already is, so the signed bytes
 * embed exactly the transcript the wallet computes.
 */
export function encodeReaderAuthentication(options: {
  sessionTranscript: Uint8Array;
  /** The ItemsRequest's CBOR (the content of ItemsRequestBytes, without its tag 24). */
  itemsRequest: Uint8Array;
}): Uint8Array {
  const readerAuthentication = Buffer.concat([
    Buffer.of(ARRAY_OF_THREE),
    cbor.encode('ReaderAuthentication'),
    Buffer.from(options.sessionTranscript),
    cbor.encode(new Tag(Buffer.from(options.itemsRequest), 24)),
  ]);
  return new Uint8Array(cbor.encode(new Tag(readerAuthentication, 24)));
}

/**
 * A ReaderAuth: COSE_Sign1 with a detached payload (ISO/IEC 18013-5 §9.1.4),
 * ES256, the chain in an `x5chain` unprotected header (one certificate as a
 * byte string, several as an array), signed over ReaderAuthenticationBytes.
 * Returned as the CBOR structure a DocRequest embeds.
 */
export function signReaderAuth(options: {
  key: ReaderAuthKey;
  sessionTranscript: Uint8Array;
  itemsRequest: Uint8Array;
}): [Buffer, Map<number, unknown>, null, Buffer] {
  const { certificateChain } = options.key;
  if (certificateChain.length === 0) throw new Error('a ReaderAuth needs the reader certificate');
  const protectedHeader = Buffer.from(cbor.encode(new Map([[COSE_ALG, COSE_ES256]])));
  const x5chain =
    certificateChain.length === 1
      ? Buffer.from(certificateChain[0]!)
      : certificateChain.map((certificate) => Buffer.from(certificate));
  const toBeSigned = cbor.encode([
    'Signature1',
    protectedHeader,
    Buffer.alloc(0),
    Buffer.from(encodeReaderAuthentication(options)),
  ]);
  const privateKey =
    options.key.privateKey instanceof KeyObject ? options.key.privateKey : KeyObject.from(options.key.privateKey);
  const signature = sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return [protectedHeader, new Map<number, unknown>([[COSE_X5CHAIN, x5chain]]), null, signature];
}
