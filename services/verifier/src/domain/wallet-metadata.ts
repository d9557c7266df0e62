/** `wallet_metadata` of a request_uri POST (OpenID4VP 1.0 §5.10) must be a JSON object. */
export function isWalletMetadata(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
