// Where the services learn which peers may name the client in X-Forwarded-For (issue 28, item 8).
// The rate limits count per client address: if TRUST_PROXY does not cover the ingress
// controller's pods, every wallet is counted as the controller's address (one bucket for all);
// if it covers too much, anyone can name any client. The base cannot know a cluster's pod
// range, so it sets none: every Deployment (the console's too) takes TRUST_PROXY from the ConfigMap
// `tessera-trusted-proxies`, which only an overlay generates (a required reference: without it
// no pod starts), and nothing else sets it.

import { isIP } from 'node:net';
import { collectProblems } from './util.mjs';

/** The ConfigMap each overlay generates with TRUST_PROXY (the rendered name carries kustomize's hash). */
export const TRUSTED_PROXIES_CONFIG_MAP = 'tessera-trusted-proxies';
const SERVICES = ['verifier', 'ecosystem', 'status-list', 'console'];
/** The broadest range a proxy list may hold: a pod CIDR, not the internet. */
const BROADEST_PREFIX = { 4: 8, 6: 32 };

const isTrustedProxies = (name = '') =>
  name === TRUSTED_PROXIES_CONFIG_MAP || name.startsWith(`${TRUSTED_PROXIES_CONFIG_MAP}-`);

/** Why `cidr` is not a narrow enough CIDR, or undefined when it is. */
function cidrProblem(cidr) {
  const match = /^([0-9a-fA-F.:]+)\/(\d{1,3})$/.exec(cidr);
  const family = match ? isIP(match[1]) : 0;
  if (!match || family === 0) return `"${cidr}" is not a CIDR (an address and a prefix length)`;
  const prefix = Number(match[2]);
  if (prefix > (family === 4 ? 32 : 128)) return `"${cidr}" has a prefix longer than an address`;
  if (prefix < BROADEST_PREFIX[family])
    return `"${cidr}" is broader than a /${BROADEST_PREFIX[family]}: it would let most of the internet name clients`;
  return undefined;
}

/** The rules on a rendered overlay. */
export function trustedProxyRules(objects) {
  const { problems, want } = collectProblems();
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  const lists = configMaps.filter((o) => isTrustedProxies(o.metadata.name));
  if (
    !want(
      lists.length === 1,
      `ConfigMap ${TRUSTED_PROXIES_CONFIG_MAP}: the overlay must generate it once, with TRUST_PROXY = the ingress controller's pod CIDRs (found ${lists.length})`,
    )
  )
    return problems;
  const [list] = lists;
  const value = String(list.data?.TRUST_PROXY ?? '').trim();
  const cidrs = value.split(',').map((part) => part.trim());
  if (want(value !== '', `ConfigMap ${TRUSTED_PROXIES_CONFIG_MAP}: TRUST_PROXY is missing or empty`))
    for (const cidr of cidrs) {
      const problem = cidrProblem(cidr);
      want(
        !problem,
        `ConfigMap ${TRUSTED_PROXIES_CONFIG_MAP}: TRUST_PROXY must be the ingress controller's CIDRs (a hop count or true trusts whoever connects): ${problem}`,
      );
    }
  for (const configMap of configMaps)
    if (configMap !== list)
      want(
        !('TRUST_PROXY' in (configMap.data ?? {})),
        `ConfigMap ${configMap.metadata.name}: sets TRUST_PROXY; it belongs in ${TRUSTED_PROXIES_CONFIG_MAP} only (one value for every service)`,
      );
  for (const service of SERVICES) {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === service);
    if (!deployment) continue;
    const container = deployment.spec.template.spec.containers[0];
    const reference = (container.envFrom ?? []).find((source) => isTrustedProxies(source.configMapRef?.name));
    want(
      reference && !reference.configMapRef.optional,
      `Deployment ${service}: must take TRUST_PROXY from ConfigMap ${TRUSTED_PROXIES_CONFIG_MAP} (envFrom, not optional)`,
    );
    want(
      !(container.env ?? []).some((variable) => variable.name === 'TRUST_PROXY'),
      `Deployment ${service}: sets TRUST_PROXY in env; it belongs in ${TRUSTED_PROXIES_CONFIG_MAP} only`,
    );
  }
  return problems;
}

/** The base leaves TRUST_PROXY to the overlays: no value of its own to be inherited unchanged. */
export function baseTrustedProxyRules(objects) {
  return objects
    .filter((o) => o.kind === 'ConfigMap' && 'TRUST_PROXY' in (o.data ?? {}))
    .map(
      (o) =>
        `base ConfigMap ${o.metadata.name}: sets TRUST_PROXY; the base cannot know the cluster's pod range (each overlay generates ${TRUSTED_PROXIES_CONFIG_MAP})`,
    );
}
