/**
 * The redirect a verified same-device answer sends the wallet to: the session's
 * `redirectUri` with `response_code` added as a query parameter (OpenID4VP 1.0
 * §8.2). The URI's own query (as written, encoding untouched) and fragment are
 * kept; the code goes last in the query, before any fragment.
 */
export function addResponseCode(redirectUri: string, responseCode: string): string {
  const hashAt = redirectUri.indexOf('#');
  const [beforeFragment, fragment] =
    hashAt === -1 ? [redirectUri, ''] : [redirectUri.slice(0, hashAt), redirectUri.slice(hashAt)];
  const separator = !beforeFragment.includes('?')
    ? '?'
    : beforeFragment.endsWith('?') || beforeFragment.endsWith('&')
      ? ''
      : '&';
  return `${beforeFragment}${separator}response_code=${encodeURIComponent(responseCode)}${fragment}`;
}

/** True when `redirectUri` already has a `response_code` query parameter (it would be ambiguous which one the wallet's redirect carries). */
export function hasResponseCodeParameter(redirectUri: string): boolean {
  try {
    return new URL(redirectUri).searchParams.has('response_code');
  } catch {
    return false;
  }
}
