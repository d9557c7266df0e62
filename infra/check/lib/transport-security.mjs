// Transport security of the rendered deployments (issue 17, items 4 and 5): the prod overlay
// verifies PostgreSQL's certificate (DATABASE_CA_FILE from Secret tessera-postgres-ca) in every
// pod, talks to NATS over tls:// as the service's own user with its password mounted as a file,
// and reaches NATS only at the NATS pods; anywhere a service is given a plain nats:// URL it must
// also be told that this is local only (NATS_ALLOW_INSECURE), or it refuses to start.

const POSTGRES_SERVICES = ['verifier', 'ecosystem', 'status-list'];
const NATS_SERVICES = ['verifier', 'ecosystem'];
const VERIFIED_SSL_MODES = ['verify-full', 'verify-ca'];

/** The value of `name` in a container: its env list, else the ConfigMaps it loads. */
function envValue(container, configMaps, name) {
  const direct = (container.env ?? []).find((variable) => variable.name === name);
  if (direct) return direct.value;
  for (const source of container.envFrom ?? []) {
    const value = configMaps.get(source.configMapRef?.name)?.data?.[name];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The Secret mounted at the directory holding `path` in this pod, if any. */
function secretMountedFor(podSpec, container, path) {
  const mount = (container.volumeMounts ?? []).find((m) => path?.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
  const volume = mount && (podSpec.volumes ?? []).find((v) => v.name === mount.name);
  return volume?.secret?.secretName;
}

/** Problems of one rendered overlay (`objects`), with its secret.example.yaml objects (`examples`). */
export function transportSecurityRules(overlay, objects, examples) {
  const problems = [];
  const want = (ok, message) => ok || problems.push(message);
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o]));
  const pods = objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({ owner: `${o.kind} ${o.metadata.name}`, kind: o.kind, service: o.spec.template.metadata?.labels?.['app.kubernetes.io/name'], spec: o.spec.template.spec }))
    .filter((pod) => POSTGRES_SERVICES.includes(pod.service));

  for (const pod of pods) {
    const container = pod.spec.containers[0];
    const natsUrl = envValue(container, configMaps, 'NATS_URL');
    if (natsUrl?.startsWith('nats://')) want(envValue(container, configMaps, 'NATS_ALLOW_INSECURE') === 'true', `${pod.owner}: plain NATS_URL without NATS_ALLOW_INSECURE=true: the service refuses to start`);
    if (overlay !== 'prod') continue;
    const caFile = envValue(container, configMaps, 'DATABASE_CA_FILE');
    want(secretMountedFor(pod.spec, container, caFile) === 'tessera-postgres-ca', `${pod.owner}: DATABASE_CA_FILE must name a file of the mounted Secret tessera-postgres-ca`);
    if (pod.kind !== 'Deployment' || !NATS_SERVICES.includes(pod.service)) continue;
    want(natsUrl?.startsWith('tls://'), `${pod.owner}: NATS_URL must be tls://`);
    want(envValue(container, configMaps, 'NATS_ALLOW_INSECURE') !== 'true', `${pod.owner}: NATS_ALLOW_INSECURE must not be set in production`);
    want(envValue(container, configMaps, 'NATS_USER') === pod.service, `${pod.owner}: NATS_USER must be "${pod.service}" (its user in infra/nats/nats-server.conf)`);
    want(secretMountedFor(pod.spec, container, envValue(container, configMaps, 'NATS_CA_FILE')) === 'tessera-nats-ca', `${pod.owner}: NATS_CA_FILE must name a file of the mounted Secret tessera-nats-ca`);
    want(secretMountedFor(pod.spec, container, envValue(container, configMaps, 'NATS_PASS_FILE')) === `tessera-nats-${pod.service}`, `${pod.owner}: NATS_PASS_FILE must name a file of the mounted Secret tessera-nats-${pod.service}`);
  }
  if (overlay !== 'prod') return problems;

  for (const service of POSTGRES_SERVICES) {
    const secret = examples.find((o) => o.kind === 'Secret' && o.metadata.name === `${service}-secrets`);
    const url = secret?.stringData?.DATABASE_URL ?? '';
    const mode = new URLSearchParams(url.split('?')[1] ?? '').get('sslmode');
    want(VERIFIED_SSL_MODES.includes(mode), `secret.example.yaml ${service}-secrets: DATABASE_URL must say sslmode=verify-full (found ${mode ?? 'none'})`);
  }
  for (const policy of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    for (const rule of policy.spec.egress ?? []) {
      if (!(rule.ports ?? []).some((p) => p.port === 4222)) continue;
      want((rule.to ?? []).length > 0 && rule.to.every((peer) => peer.podSelector && peer.namespaceSelector), `NetworkPolicy ${policy.metadata.name}: NATS egress must go to the NATS pods only (namespaceSelector + podSelector)`);
    }
  }
  return problems;
}

/** Compose: a service given a plain nats:// URL must be told it is local only. */
export function composeTransportRules(raw) {
  const problems = [];
  for (const [name, service] of Object.entries(raw.services ?? {})) {
    const env = service.environment ?? {};
    if (String(env.NATS_URL ?? '').startsWith('nats://') && String(env.NATS_ALLOW_INSECURE) !== 'true') {
      problems.push(`${name}: plain NATS_URL without NATS_ALLOW_INSECURE: "true": the service refuses to start`);
    }
  }
  return problems;
}
