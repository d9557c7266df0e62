/** One PEM block: `-----BEGIN <label>-----`, base64 body, `-----END <label>-----`. */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\s]*?)-----END \1-----/g;

export interface PemBlock {
  label: string;
  /** The DER bytes. */
  der: Buffer;
  /** The block as it stood in the text. */
  pem: string;
}

/** Every PEM block of `text`, in order (text between blocks is ignored). */
export function readPemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(PEM_BLOCK)].map((match) => ({
    label: match[1]!,
    der: Buffer.from(match[2]!.replace(/\s+/g, ''), 'base64'),
    pem: match[0],
  }));
}

/** The `CERTIFICATE` blocks of `text` as PEM strings, in order. */
export function splitPemCertificates(text: string): string[] {
  return readPemBlocks(text)
    .filter((block) => block.label === 'CERTIFICATE')
    .map((block) => block.pem);
}

/** DER bytes as a PEM block with 64-character lines. */
export function toPem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
