// The edges of a rendered overlay (issue 17, item 6): what the Ingresses publish, and what
// the NetworkPolicies let each service reach and be reached from.

import { collectProblems } from './util.mjs';

/** What may be on a public Ingress, per backend Service; the only paths, and all of them must be there. */
export const PUBLIC_PATHS = {
  verifier: ['/oid4vp/authorization-requests/', '/oid4vp/authorization-responses/', '/oid4vp/platform-ca.pem'],
  'status-list': ['/status-lists/'],
  ecosystem: ['/v1/ecosystem/[^/]+/trust-list$', '/v1/trust-list-ca.pem$'],
};
/** An Ingress carrying this annotation (non-empty) is internal: an address allowlist guards it. */
export const ALLOWLIST_ANNOTATION = 'nginx.ingress.kubernetes.io/whitelist-source-range';
/** Never routed by any Ingress: documentation, health, and everything under `/`. */
const NEVER_ROUTED = /^\/(docs|health)?(\/|$)/;

/** Ranges an internet egress rule must exclude: loopback, link-local (cloud metadata), private, CGNAT, IPv6 ULA/link-local. */
export const NON_PUBLIC_V4 = [
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
];
export const NON_PUBLIC_V6 = ['::1/128', 'fc00::/7', 'fe80::/10'];
/** NodeLocal DNSCache's default listen address. */
export const NODE_LOCAL_DNS = '169.254.20.10/32';

const SERVICES = ['verifier', 'ecosystem', 'status-list', 'console'];
/** Served at `/` of its own host on an internal (allowlisted) Ingress: the console's pages are its root. */
const ROOT_ON_INTERNAL_INGRESS = ['console'];
const describe = (object) => `${object.kind}/${object.metadata?.name}`;

/** A Kubernetes label selector (matchLabels and matchExpressions) against a label set. */
export function selectorMatches(selector, labels = {}) {
  const byLabel = Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector?.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key]);
    if (operator === 'NotIn') return !values.includes(labels[key]);
    if (operator === 'Exists') return key in labels;
    return !(key in labels);
  });
  return byLabel && byExpression;
}

const isAnywhere = (cidr) => cidr === '0.0.0.0/0' || cidr === '::/0';
const portsOf = (rule) => (rule.ports ?? []).map((p) => p.port);

export function edgeRules(objects, { config }) {
  const { problems, want } = collectProblems();
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const ingresses = objects.filter((o) => o.kind === 'Ingress');

  // ---- Ingresses: public ones publish exactly PUBLIC_PATHS; internal ones have an allowlist.
  const publicClasses = new Set();
  const published = new Map(SERVICES.map((service) => [service, new Set()]));
  for (const ingress of ingresses) {
    const allowlist = ingress.metadata.annotations?.[ALLOWLIST_ANNOTATION];
    if (!allowlist) publicClasses.add(ingress.spec.ingressClassName);
    for (const rule of ingress.spec.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const service = path.backend.service?.name;
        want(
          !NEVER_ROUTED.test(path.path) ||
            (allowlist && path.path === '/' && ROOT_ON_INTERNAL_INGRESS.includes(service)),
          `${describe(ingress)}: routes ${path.path} to ${service}: /, /docs and /health/* stay internal (kubectl port-forward)`,
        );
        if (allowlist) continue;
        const allowed = PUBLIC_PATHS[service] ?? [];
        if (
          want(
            allowed.includes(path.path),
            `${describe(ingress)}: publishes ${path.path} of ${service}; public are only ${allowed.join(', ') || 'none of its paths'}`,
          )
        )
          published.get(service).add(path.path);
        if (path.pathType === 'ImplementationSpecific')
          want(
            ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/use-regex'] === 'true',
            `${describe(ingress)}: ${path.path} is a regular expression; set nginx.ingress.kubernetes.io/use-regex`,
          );
      }
    }
  }
  for (const [service, paths] of Object.entries(PUBLIC_PATHS)) {
    for (const path of paths)
      want(published.get(service).has(path), `Ingress: ${service}'s public ${path} is not published`);
  }
  for (const ingress of ingresses.filter((i) => i.metadata.annotations?.[ALLOWLIST_ANNOTATION])) {
    want(
      !publicClasses.has(ingress.spec.ingressClassName),
      `${describe(ingress)}: an internal Ingress needs its own ingress class, not the public ${ingress.spec.ingressClassName}`,
    );
  }

  // ---- NetworkPolicies.
  for (const policy of policies) {
    for (const rule of policy.spec.egress ?? []) {
      want(
        (rule.to ?? []).length > 0,
        `${describe(policy)}: an egress rule without \`to\` allows any destination (ports ${portsOf(rule).join(', ') || 'all'})`,
      );
      for (const peer of rule.to ?? []) {
        const block = peer.ipBlock;
        if (!block || !isAnywhere(block.cidr)) continue;
        const required = block.cidr === '::/0' ? NON_PUBLIC_V6 : NON_PUBLIC_V4;
        const missing = required.filter((range) => !(block.except ?? []).includes(range));
        want(
          missing.length === 0,
          `${describe(policy)}: egress to ${block.cidr} must except ${missing.join(', ')} (link-local, loopback, private ranges)`,
        );
      }
    }
  }
  const deny = policies.find(
    (p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && !p.spec.ingress && !p.spec.egress,
  );
  want(
    deny?.spec.policyTypes.includes('Ingress') && deny?.spec.policyTypes.includes('Egress'),
    'NetworkPolicy: a default deny of ingress and egress is missing',
  );
  const dnsPeers = policies
    .filter((p) => Object.keys(p.spec.podSelector ?? {}).length === 0)
    .flatMap((p) =>
      (p.spec.egress ?? [])
        .filter((rule) =>
          ['UDP', 'TCP'].every((protocol) => rule.ports?.some((x) => x.port === 53 && x.protocol === protocol)),
        )
        .flatMap((rule) => rule.to ?? []),
    );
  want(
    dnsPeers.some((peer) => peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns'),
    'NetworkPolicy: DNS egress (53 UDP and TCP) to kube-dns is missing',
  );
  want(
    dnsPeers.some((peer) => peer.ipBlock?.cidr === NODE_LOCAL_DNS),
    `NetworkPolicy: DNS egress (53 UDP and TCP) to NodeLocal DNSCache ${NODE_LOCAL_DNS} is missing`,
  );

  for (const service of SERVICES) {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === service);
    if (!deployment) continue;
    const labels = deployment.spec.template.metadata.labels;
    const mine = policies.filter((p) => selectorMatches(p.spec.podSelector, labels));
    const egress = mine.flatMap((p) => p.spec.egress ?? []);
    const egressTo = (port) => egress.filter((rule) => portsOf(rule).includes(port));
    const ingressFromController = mine.some((p) =>
      (p.spec.ingress ?? []).some((rule) =>
        (rule.from ?? []).some(
          (peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx',
        ),
      ),
    );
    const fromInternalController = mine.some((p) =>
      (p.spec.ingress ?? []).some(
        (rule) =>
          (rule.ports ?? []).some((x) => x.port === 3004) &&
          (rule.from ?? []).some(
            (peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx-internal',
          ),
      ),
    );
    if (service === 'console') {
      // A person's tool: the internal controller only, never the public one.
      want(
        fromInternalController,
        'NetworkPolicy: the console must be reachable from the internal ingress controller on 3004',
      );
      want(
        !ingressFromController,
        'NetworkPolicy: the console must not be reachable from the public ingress controller',
      );
    } else
      want(
        ingressFromController,
        `NetworkPolicy: ${service} must be reachable from the ingress controller's namespace (its public paths)`,
      );
    // PostgreSQL and NATS: to their own pods/namespaces or a narrow address, never anywhere.
    for (const [port, name, needed] of [
      [5432, 'PostgreSQL', service !== 'console'],
      [4222, 'NATS', service !== 'status-list' && service !== 'console'],
    ]) {
      const rules = egressTo(port);
      if (!needed) {
        want(rules.length === 0, `NetworkPolicy: ${service} does not use ${name} and must not reach it (${port})`);
        continue;
      }
      want(rules.length > 0, `NetworkPolicy: ${service} cannot reach ${name} (${port})`);
      for (const rule of rules) {
        const narrow =
          (rule.to ?? []).length > 0 &&
          rule.to.every(
            (peer) =>
              peer.podSelector ||
              peer.namespaceSelector ||
              (peer.ipBlock && Number(peer.ipBlock.cidr.split('/')[1]) >= 16),
          );
        want(
          narrow,
          `NetworkPolicy: ${service}'s ${name} egress (${port}) must go to ${name}'s own selector or address, not anywhere`,
        );
      }
    }
    const internet = egressTo(443).some((rule) =>
      (rule.to ?? []).some((peer) => peer.ipBlock && isAnywhere(peer.ipBlock.cidr)),
    );
    if (service === 'verifier') {
      want(internet, 'NetworkPolicy: the verifier must reach public addresses over 443 (status lists, JWKS, webhooks)');
      const internalHosts = (config.verifier?.STATUS_LIST_INTERNAL_HOSTS ?? '').trim();
      const toStatusList = egressTo(3003).some((rule) =>
        (rule.to ?? []).some((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'status-list'),
      );
      if (internalHosts)
        want(
          toStatusList,
          `NetworkPolicy: STATUS_LIST_INTERNAL_HOSTS (${internalHosts}) names an in-cluster status list, but the verifier cannot reach the status-list pods on 3003`,
        );
    }
    if (service === 'status-list') want(!internet, 'NetworkPolicy: status-list must not reach the internet');
    if (service === 'console') {
      // Its services' public APIs, in the cluster (their pods), and nothing else of theirs.
      for (const [peer, port] of [
        ['verifier', 3001],
        ['ecosystem', 3002],
        ['status-list', 3003],
      ])
        want(
          egressTo(port).some((rule) =>
            (rule.to ?? []).some((to) => to.podSelector?.matchLabels?.['app.kubernetes.io/name'] === peer),
          ),
          `NetworkPolicy: the console cannot reach the ${peer} pods on ${port} (it calls their APIs)`,
        );
      for (const ingress of ingresses.filter((i) => !i.metadata.annotations?.[ALLOWLIST_ANNOTATION]))
        want(
          !(ingress.spec.rules ?? []).some((rule) =>
            (rule.http?.paths ?? []).some((path) => path.backend.service?.name === 'console'),
          ),
          `${describe(ingress)}: the console must not be on a public Ingress (internal class and allowlist only)`,
        );
    }
  }
  return problems;
}
