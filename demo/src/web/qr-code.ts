import QRCode from 'qrcode';

/**
 * The request URI as an SVG QR code (error correction M: an `openid4vp://` URI of
 * some 200 characters stays a small, easily scanned code). Drawn by the backend so
 * the page needs no script library and the code is in the HTML as soon as it loads.
 */
export function renderQrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
