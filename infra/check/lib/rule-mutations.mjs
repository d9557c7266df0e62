// The rules' own test: each mutation breaks one property of the rendered prod overlay, as
// an edit that undoes an issue 17 fix would; the rules (`checkRules` and the transport rules) must report a new problem for
// every one. So a rule that can no longer fail (a typo in a path, a selector that matches
// nothing) fails this check instead of passing silently.
const deployment = (objects, name) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
const policy = (objects, name) => objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === name);
const ingress = (objects, name) => objects.find((o) => o.kind === 'Ingress' && o.metadata.name === name);
const pod = (objects, name) => deployment(objects, name).spec.template.spec;
const trustedProxies = (objects) =>
  objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('tessera-trusted-proxies'));

export const MUTATIONS = {
  // item 2: migrations
  'a migration Job in the applied set': (o) =>
    o.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'verifier-migrate', namespace: 'tessera' },
      spec: {
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'm', image: 'x@sha256:' + '0'.repeat(64) }] },
        },
      },
    }),
  'no migrate init container': (o) => delete pod(o, 'status-list').initContainers,
  'migrate init container on another image': (o) =>
    (pod(o, 'ecosystem').initContainers[0].image =
      'registry.tessera.example/tessera/ecosystem@sha256:' + 'f'.repeat(64)),
  // item 3: images
  'image by tag in prod': (o) =>
    (pod(o, 'verifier').containers[0].image = 'registry.tessera.example/tessera/verifier:0.1.0'),
  'latest tag': (o) => (pod(o, 'ecosystem').containers[0].image = 'tessera/ecosystem:latest'),
  // items 4 and 5: transport security (the same rules hold compose and the dev overlay)
  'NATS over plain nats://': (o) =>
    Object.assign(o.find((x) => x.kind === 'ConfigMap' && x.metadata.name.startsWith('verifier-config')).data, {
      NATS_URL: 'nats://nats.nats.svc.cluster.local:4222',
    }),
  'NATS_ALLOW_INSECURE set': (o) =>
    pod(o, 'ecosystem').containers[0].env.push({ name: 'NATS_ALLOW_INSECURE', value: 'true' }),
  'PostgreSQL CA not mounted': (o) =>
    (pod(o, 'status-list').containers[0].volumeMounts = pod(o, 'status-list').containers[0].volumeMounts.filter(
      (m) => m.name !== 'postgres-ca',
    )),
  'NATS as another service': (o) =>
    (pod(o, 'verifier').containers[0].env.find((e) => e.name === 'NATS_USER').value = 'ecosystem'),
  // item 6: edges
  'management API on the public Ingress': (o) =>
    ingress(o, 'tessera').spec.rules[0].http.paths.push({
      path: '/v1/orgs/',
      pathType: 'Prefix',
      backend: { service: { name: 'verifier', port: { name: 'http' } } },
    }),
  '/docs on the internal Ingress': (o) =>
    ingress(o, 'tessera-internal').spec.rules[0].http.paths.push({
      path: '/docs',
      pathType: 'Prefix',
      backend: { service: { name: 'verifier', port: { name: 'http' } } },
    }),
  'trust list not published': (o) => ingress(o, 'tessera-trust-list').spec.rules[0].http.paths.pop(),
  'internal Ingress without its allowlist': (o) => delete ingress(o, 'tessera-internal').metadata.annotations,
  'verifier egress reaches link-local': (o) => policy(o, 'verifier').spec.egress[0].to[0].ipBlock.except.splice(3, 1),
  'PostgreSQL egress to anywhere': (o) => delete policy(o, 'allow-postgres-egress').spec.egress[0].to,
  'NATS egress for the status list': (o) =>
    policy(o, 'allow-nats-egress').spec.podSelector.matchExpressions[0].values.push('status-list'),
  'no NodeLocal DNSCache': (o) => o.splice(o.indexOf(policy(o, 'allow-node-local-dns-egress')), 1),
  'verifier cannot reach the internal status list host': (o) => policy(o, 'verifier').spec.egress.pop(),
  // issue 29: the console
  'the console on the public Ingress': (o) =>
    ingress(o, 'tessera').spec.rules[0].http.paths.push({
      path: '/oid4vp/platform-ca.pem',
      pathType: 'Exact',
      backend: { service: { name: 'console', port: { name: 'http' } } },
    }),
  'the console cannot reach the verifier': (o) => policy(o, 'console').spec.egress.shift(),
  'the console behind the public ingress controller': (o) =>
    policy(o, 'console').spec.ingress.push({
      from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
      ports: [{ protocol: 'TCP', port: 3004 }],
    }),
  'the console with a database': (o) =>
    pod(o, 'console').containers[0].env.push({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'verifier-secrets', key: 'DATABASE_URL' } },
    }),
  'the console reaching PostgreSQL': (o) =>
    policy(o, 'allow-postgres-egress').spec.podSelector.matchExpressions[0].values.push('console'),
  // items 7 and 8: secrets, client address
  'prod overlay owns the Namespace': (o) =>
    o.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tessera' } }),
  'KEY_ENCRYPTION_KEY in the environment': (o) =>
    pod(o, 'verifier').containers[0].env.push({
      name: 'KEY_ENCRYPTION_KEY',
      valueFrom: { secretKeyRef: { name: 'tessera-keys', key: 'KEY_ENCRYPTION_KEY' } },
    }),
  'key files unreadable by the service': (o) =>
    (pod(o, 'verifier').volumes.find((v) => v.secret).secret.defaultMode = 0o400),
  // issue 28, item 8: TRUST_PROXY is the overlay's, required, narrow and in one place
  'TRUST_PROXY as a hop count': (o) => (trustedProxies(o).data.TRUST_PROXY = '1'),
  'TRUST_PROXY trusting the internet': (o) => (trustedProxies(o).data.TRUST_PROXY = '10.244.0.0/16,0.0.0.0/0'),
  'no trusted proxies ConfigMap': (o) => o.splice(o.indexOf(trustedProxies(o)), 1),
  'trusted proxies optional': (o) =>
    (pod(o, 'ecosystem').containers[0].envFrom.find((s) =>
      s.configMapRef?.name.startsWith('tessera-trusted-proxies'),
    ).configMapRef.optional = true),
  'TRUST_PROXY back in a service ConfigMap': (o) =>
    Object.assign(o.find((x) => x.kind === 'ConfigMap' && x.metadata.name.startsWith('status-list-config')).data, {
      TRUST_PROXY: '10.0.0.0/8',
    }),
  // item 9: workload rules
  'no spread over zones': (o) => pod(o, 'verifier').topologySpreadConstraints.pop(),
  'writable root in the init container': (o) =>
    (pod(o, 'verifier').initContainers[0].securityContext.readOnlyRootFilesystem = false),
  'root allowed': (o) => (pod(o, 'ecosystem').securityContext.runAsNonRoot = false),
  'liveness equals readiness': (o) =>
    (pod(o, 'ecosystem').containers[0].livenessProbe = pod(o, 'ecosystem').containers[0].readinessProbe),
  'memory limit below 1.5x the measured peak': (o) =>
    (pod(o, 'verifier').containers[0].resources.limits.memory = '400Mi'),
  'memory request below the measured resident': (o) =>
    (pod(o, 'status-list').containers[0].resources.requests.memory = '128Mi'),
  'PDB by minAvailable': (o) =>
    Object.assign(o.find((x) => x.kind === 'PodDisruptionBudget' && x.metadata.name === 'ecosystem').spec, {
      minAvailable: 1,
      maxUnavailable: undefined,
    }),
  'service account token mounted': (o) => (pod(o, 'verifier').automountServiceAccountToken = true),
};

/** Runs every mutation over a copy of `objects`; returns the names of those no rule caught. */
export function missedMutations(objects, check) {
  const baseline = new Set(check(structuredClone(objects)));
  return Object.entries(MUTATIONS)
    .filter(([, mutate]) => {
      const copy = structuredClone(objects);
      mutate(copy);
      return check(copy).every((problem) => baseline.has(problem));
    })
    .map(([name]) => name);
}
