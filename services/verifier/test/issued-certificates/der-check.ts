// What a strict DER parser (Python's `cryptography`, Rust's x509 crates) checks in
// a certificate, done independently of the code that issued it: asn1js decodes,
// and the raw bytes are walked for the encoding rules asn1js itself tolerates.
import * as asn1js from 'asn1js';

const UNIVERSAL = 1;
const BOOLEAN = 1;
const INTEGER = 2;
const SET = 17;
const OCTET_STRING = 4;

/** Every DER problem found in `der` (X.690 §10–11), as sentences; empty when it is valid DER. */
export function derProblems(der: Uint8Array): string[] {
  const problems: string[] = [];
  walkTlv(der, 0, der.length, problems, 0);
  const decoded = asn1js.fromBER(der);
  if (decoded.offset === -1 || decoded.result.error)
    return [...problems, `asn1js cannot decode it: ${decoded.result.error}`];
  if (decoded.offset !== der.length) problems.push(`${der.length - decoded.offset} trailing bytes`);
  visit(decoded.result, (block) => {
    const { tagClass, tagNumber } = block.idBlock;
    if (tagClass !== UNIVERSAL) return;
    if (tagNumber === SET && block.idBlock.isConstructed) {
      const elements = (block.valueBlock as unknown as { value: asn1js.BaseBlock[] }).value.map((element) =>
        Buffer.from(element.valueBeforeDecodeView),
      );
      for (let i = 1; i < elements.length; i++) {
        if (compareDer(elements[i - 1]!, elements[i]!) > 0)
          problems.push(`a SET OF is not in DER order (element ${i} sorts before element ${i - 1})`);
      }
    }
    if (tagNumber === BOOLEAN) {
      const value = Buffer.from((block as asn1js.Boolean).valueBlock.valueHexView);
      // In a certificate every BOOLEAN (critical, cA) is DEFAULT FALSE: DER omits FALSE and writes TRUE as FF.
      if (value.length !== 1 || value[0] !== 0xff)
        problems.push(`a BOOLEAN is encoded as ${value.toString('hex')} (DER: TRUE is ff, a DEFAULT FALSE is omitted)`);
    }
    if (tagNumber === OCTET_STRING && !block.idBlock.isConstructed) {
      // An extension's value is DER inside an OCTET STRING: judged by the same rules.
      const inner = Buffer.from((block as asn1js.OctetString).valueBlock.valueHexView);
      const parsed = inner.length > 0 ? asn1js.fromBER(inner) : undefined;
      if (parsed && parsed.offset === inner.length && !parsed.result.error)
        problems.push(...derProblems(inner).map((problem) => `inside an OCTET STRING: ${problem}`));
    }
    if (tagNumber === INTEGER) {
      const value = Buffer.from((block as asn1js.Integer).valueBlock.valueHexView);
      if (value.length > 1 && ((value[0] === 0x00 && value[1]! < 0x80) || (value[0] === 0xff && value[1]! >= 0x80)))
        problems.push(`an INTEGER is not minimally encoded (${value.subarray(0, 4).toString('hex')}…)`);
    }
  });
  return problems;
}

/** X.690 §11.6: SET OF elements sorted by their encodings as octet strings, the shorter padded with zeros. */
function compareDer(a: Buffer, b: Buffer): number {
  const length = Math.max(a.length, b.length);
  return Buffer.compare(
    Buffer.concat([a, Buffer.alloc(length - a.length)]),
    Buffer.concat([b, Buffer.alloc(length - b.length)]),
  );
}

function visit(block: asn1js.AsnType, fn: (block: asn1js.BaseBlock) => void): void {
  const base = block as asn1js.BaseBlock;
  fn(base);
  const value = (base.valueBlock as { value?: unknown }).value;
  if (base.idBlock.isConstructed && Array.isArray(value)) for (const child of value) visit(child as asn1js.AsnType, fn);
}

/** Definite, minimal lengths everywhere (X.690 §10.1, §8.1.3.5), low tag numbers in one byte. */
function walkTlv(bytes: Uint8Array, start: number, end: number, problems: string[], depth: number): void {
  let offset = start;
  while (offset < end) {
    const tag = bytes[offset]!;
    if ((tag & 0x1f) === 0x1f) {
      problems.push(`high tag number form at ${offset}`);
      return;
    }
    const constructed = (tag & 0x20) !== 0;
    const lengthByte = bytes[offset + 1];
    if (lengthByte === undefined) return void problems.push(`truncated at ${offset}`);
    let length: number;
    let header = 2;
    if (lengthByte === 0x80) return void problems.push(`indefinite length at ${offset}`);
    if (lengthByte < 0x80) length = lengthByte;
    else {
      const count = lengthByte & 0x7f;
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + 2 + i]!;
      header += count;
      if (bytes[offset + 2] === 0 || length < 0x80 || length < 256 ** (count - 1))
        problems.push(`non-minimal length at ${offset}`);
    }
    const contentEnd = offset + header + length;
    if (contentEnd > end) return void problems.push(`length beyond its parent at ${offset}`);
    // Walk into constructed values (extension values are checked by derProblems, which opens their OCTET STRINGs).
    if (constructed && depth < 64) walkTlv(bytes, offset + header, contentEnd, problems, depth + 1);
    offset = contentEnd;
  }
}

/** The subject and issuer of a certificate: each RDN and how many attributes it holds. */
export function rdnSizes(der: Uint8Array): { issuer: number[]; subject: number[] } {
  const certificate = asn1js.fromBER(der).result as asn1js.Sequence;
  const tbs = certificate.valueBlock.value[0] as asn1js.Sequence;
  const fields = tbs.valueBlock.value;
  // version [0] is present in v3 certificates: serial, signature, issuer, validity, subject follow it.
  const first = fields[0]!.idBlock.tagClass === 3 ? 1 : 0;
  const sizes = (name: asn1js.AsnType) =>
    (name as asn1js.Sequence).valueBlock.value.map((rdn) => (rdn as asn1js.Set).valueBlock.value.length);
  return { issuer: sizes(fields[first + 2]!), subject: sizes(fields[first + 4]!) };
}

/** The raw DER of a certificate's issuer or subject Name. */
export function rawName(der: Uint8Array, which: 'issuer' | 'subject'): Buffer {
  const tbs = (asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
  const fields = tbs.valueBlock.value;
  const first = fields[0]!.idBlock.tagClass === 3 ? 1 : 0;
  return Buffer.from(fields[first + (which === 'issuer' ? 2 : 4)]!.valueBeforeDecodeView);
}

export function pemToDer(pem: string): Uint8Array {
  return Buffer.from(pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64');
}
