import QRCode from 'qrcode';

/** The request address as a QR code (SVG, drawn by the `qrcode` library), for a wallet to scan. */
export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
