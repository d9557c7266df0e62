/**
 * Where status list fetches may go (VERIFIER.md round 2). A credential names its
 * status list URI, so whoever issues a credential chooses what the verifier fetches:
 * without a rule, a crafted credential could make the verifier call services inside
 * its own network. The defaults come from configuration (`statusListNetworkPolicyOf`).
 */
export interface StatusListNetworkPolicy {
  /** Fetch `http:` URIs too (otherwise only `https:`). */
  allowHttp: boolean;
  /** Refuse hosts whose addresses are not globally routable (see `classifyAddress`). */
  denyPrivateAddresses: boolean;
  /** Host names exempt from the address rule: status lists served inside the cluster. Lower case, IPv6 without brackets. */
  internalHosts: string[];
}

/** `STATUS_LIST_INTERNAL_HOSTS` → host names: comma-separated, trimmed, lower-cased, IPv6 brackets removed, empties dropped. */
export function parseHostList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((host) => normaliseHost(host.trim()))
    .filter((host) => host.length > 0);
}

/** True when `hostname` (a URL's hostname) is one of the policy's internal hosts. */
export function isInternalHost(policy: Pick<StatusListNetworkPolicy, 'internalHosts'>, hostname: string): boolean {
  return policy.internalHosts.includes(normaliseHost(hostname));
}

/** Host names compare case-insensitively and without a trailing dot; IPv6 literals without brackets. */
function normaliseHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * The URL-level rules, checked before anything is resolved: http(s) only, `http:`
 * only when allowed. Throws with a sentence naming the rule.
 */
export function checkStatusListUrl(url: URL, policy: Pick<StatusListNetworkPolicy, 'allowHttp'>): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} URIs are not fetched`);
  if (url.protocol === 'http:' && !policy.allowHttp)
    throw new Error('http: status list URIs are refused (STATUS_LIST_ALLOW_HTTP is off)');
}
