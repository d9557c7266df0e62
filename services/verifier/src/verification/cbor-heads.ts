// The few CBOR items the signature checks build around bytes they already hold (a
// Sig_structure, IssuerSignedItemBytes, DeviceAuthenticationBytes), written directly:
// a general encoder copies every payload through its writer, which on the mdoc path cost
// more than the signatures (bench/RESULTS.md, issue 27). Heads in preferred (shortest)
// form, RFC 8949 §4.2.1, as cbor2 writes them.

const MAJOR_BYTES = 2;
const MAJOR_TEXT = 3;
const MAJOR_ARRAY = 4;
const ENCODED_CBOR_TAG = Uint8Array.of(0xd8, 24);

/** The head of a CBOR item of major type `major` with argument `length`. */
function head(major: number, length: number): Uint8Array {
  const type = major << 5;
  if (length < 24) return Uint8Array.of(type | length);
  if (length < 0x100) return Uint8Array.of(type | 24, length);
  if (length < 0x10000) return Uint8Array.of(type | 25, length >> 8, length & 0xff);
  if (length <= 0xffffffff) {
    const bytes = new Uint8Array(5);
    bytes[0] = type | 26;
    new DataView(bytes.buffer).setUint32(1, length);
    return bytes;
  }
  throw new Error('a CBOR item over 4 GiB is not written here');
}

/** A byte string holding `bytes`. */
export function cborByteString(bytes: Uint8Array): Buffer {
  return Buffer.concat([head(MAJOR_BYTES, bytes.length), bytes]);
}

/** A text string. */
export function cborTextString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([head(MAJOR_TEXT, bytes.length), bytes]);
}

/** An array of items given already encoded. */
export function cborArray(encodedItems: Uint8Array[]): Buffer {
  return Buffer.concat([head(MAJOR_ARRAY, encodedItems.length), ...encodedItems]);
}

/** #6.24(bstr): `encoded` as an encoded CBOR data item (RFC 8949 §3.4.5.1). */
export function cborEncodedDataItem(encoded: Uint8Array): Buffer {
  return Buffer.concat([ENCODED_CBOR_TAG, head(MAJOR_BYTES, encoded.length), encoded]);
}
