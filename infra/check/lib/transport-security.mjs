// Transport security of every deployment (issue 17, items 4 and 5), compose and each overlay
// alike: every pod verifies PostgreSQL's certificate (sslmode=verify-full, DATABASE_CA_FILE from
// Secret tessera-postgres-ca), talks to NATS over tls:// as the service's own user with CA and
// password mounted as files, and never sets NATS_ALLOW_INSECURE; a PostgreSQL or NATS the
// deployment runs itself (compose, the dev overlay) serves TLS. In prod, NATS is reached at the
// NATS pods only. Local setups use the committed development CA of infra/dev-tls/.

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

/** The Secret mounted at the directory holding `path` in this pod, if any, without a generator's hash suffix. */
function secretMountedFor(podSpec, container, path) {
  const mount = (container.volumeMounts ?? []).find((m) => path?.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
  const volume = mount && (podSpec.volumes ?? []).find((v) => v.name === mount.name);
  return withoutHashSuffix(volume?.secret?.secretName);
}

/** `name` as written in the kustomization: a secretGenerator appends `-<10 characters>`. */
function withoutHashSuffix(name) {
  return name?.replace(/-[a-z0-9]{10}$/, '');
}

/** The sslmode of a PostgreSQL URL, or undefined. */
function sslModeOf(url) {
  return new URLSearchParams(String(url ?? '').split('?')[1] ?? '').get('sslmode') ?? undefined;
}

/** DATABASE_URL of Secret `<service>-secrets`: the rendered one (a generator's) or the example's. */
function databaseUrlOf(service, secrets) {
  const secret = secrets.find(
    (o) => o.kind === 'Secret' && withoutHashSuffix(o.metadata.name) === `${service}-secrets`,
  );
  if (secret?.stringData?.DATABASE_URL) return secret.stringData.DATABASE_URL;
  return secret?.data?.DATABASE_URL && Buffer.from(secret.data.DATABASE_URL, 'base64').toString('utf8');
}

/** The command line of the deployment's own server container, as one string. */
function commandLine(container) {
  return [...(container?.command ?? []), ...(container?.args ?? [])].join(' ');
}

/** Problems of one rendered overlay (`objects`), with its secret.example.yaml objects (`examples`). */
export function transportSecurityRules(overlay, objects, examples) {
  const problems = [];
  const want = (ok, message) => ok || problems.push(message);
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o]));
  const pods = objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({
      owner: `${o.kind} ${o.metadata.name}`,
      kind: o.kind,
      service: o.spec.template.metadata?.labels?.['app.kubernetes.io/name'],
      spec: o.spec.template.spec,
    }))
    .filter((pod) => POSTGRES_SERVICES.includes(pod.service));

  for (const pod of pods) {
    const container = pod.spec.containers[0];
    const natsUrl = envValue(container, configMaps, 'NATS_URL');
    want(
      envValue(container, configMaps, 'NATS_ALLOW_INSECURE') !== 'true',
      `${pod.owner}: NATS_ALLOW_INSECURE must not be set (local setups use the development CA of infra/dev-tls/)`,
    );
    const caFile = envValue(container, configMaps, 'DATABASE_CA_FILE');
    want(
      secretMountedFor(pod.spec, container, caFile) === 'tessera-postgres-ca',
      `${pod.owner}: DATABASE_CA_FILE must name a file of the mounted Secret tessera-postgres-ca`,
    );
    if (pod.kind !== 'Deployment' || !NATS_SERVICES.includes(pod.service)) continue;
    want(natsUrl?.startsWith('tls://'), `${pod.owner}: NATS_URL must be tls://`);
    want(
      envValue(container, configMaps, 'NATS_USER') === pod.service,
      `${pod.owner}: NATS_USER must be "${pod.service}" (its user in infra/nats/nats-server.conf)`,
    );
    want(
      secretMountedFor(pod.spec, container, envValue(container, configMaps, 'NATS_CA_FILE')) === 'tessera-nats-ca',
      `${pod.owner}: NATS_CA_FILE must name a file of the mounted Secret tessera-nats-ca`,
    );
    want(
      secretMountedFor(pod.spec, container, envValue(container, configMaps, 'NATS_PASS_FILE')) ===
        `tessera-nats-${pod.service}`,
      `${pod.owner}: NATS_PASS_FILE must name a file of the mounted Secret tessera-nats-${pod.service}`,
    );
  }
  for (const service of POSTGRES_SERVICES) {
    const mode = sslModeOf(databaseUrlOf(service, [...objects, ...examples]));
    want(
      VERIFIED_SSL_MODES.includes(mode),
      `${service}-secrets: DATABASE_URL must say sslmode=verify-full (found ${mode ?? 'none'})`,
    );
  }
  // A PostgreSQL or NATS the overlay runs itself (dev) serves TLS, NATS with Tessera's configuration.
  const postgres = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'postgres');
  if (postgres)
    want(
      commandLine(postgres.spec.template.spec.containers[0]).includes('ssl=on'),
      'StatefulSet postgres: must run with ssl=on',
    );
  const nats = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'nats');
  if (nats)
    want(
      /--config \S*nats-server\.conf/.test(commandLine(nats.spec.template.spec.containers[0])),
      'Deployment nats: must run infra/nats/nats-server.conf (--config), TLS and per-service users',
    );
  if (overlay !== 'prod') return problems;

  for (const policy of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    for (const rule of policy.spec.egress ?? []) {
      if (!(rule.ports ?? []).some((p) => p.port === 4222)) continue;
      want(
        (rule.to ?? []).length > 0 && rule.to.every((peer) => peer.podSelector && peer.namespaceSelector),
        `NetworkPolicy ${policy.metadata.name}: NATS egress must go to the NATS pods only (namespaceSelector + podSelector)`,
      );
    }
  }
  return problems;
}

/** The container paths compose mounts into `service` (short syntax `source:target[:mode]`). */
function composeMountTargets(service) {
  return (service.volumes ?? [])
    .map((v) => (typeof v === 'string' ? v.match(/:(\/[^:]+)(?::(?:ro|rw))?$/)?.[1] : v.target))
    .filter(Boolean);
}

/** Compose: the same transport as production, with the development CA of infra/dev-tls/. */
export function composeTransportRules(raw) {
  const problems = [];
  const want = (ok, message) => ok || problems.push(message);
  const services = raw.services ?? {};
  for (const [name, service] of Object.entries(services)) {
    const env = service.environment ?? {};
    const mounted = (path) => composeMountTargets(service).includes(path);
    want(
      env.NATS_ALLOW_INSECURE === undefined,
      `${name}: NATS_ALLOW_INSECURE must not be set (compose uses the development CA of infra/dev-tls/)`,
    );
    if (env.DATABASE_URL !== undefined) {
      want(
        VERIFIED_SSL_MODES.includes(sslModeOf(env.DATABASE_URL)),
        `${name}: DATABASE_URL must say sslmode=verify-full`,
      );
      want(
        env.DATABASE_CA_FILE && mounted(env.DATABASE_CA_FILE),
        `${name}: DATABASE_CA_FILE must name a file mounted into the container`,
      );
    }
    if (env.NATS_URL === undefined) continue;
    want(String(env.NATS_URL).startsWith('tls://'), `${name}: NATS_URL must be tls://`);
    want(env.NATS_USER === name, `${name}: NATS_USER must be "${name}" (its user in infra/nats/nats-server.conf)`);
    want(
      env.NATS_CA_FILE && mounted(env.NATS_CA_FILE),
      `${name}: NATS_CA_FILE must name a file mounted into the container`,
    );
    want(
      env.NATS_PASS_FILE && mounted(env.NATS_PASS_FILE),
      `${name}: NATS_PASS_FILE must name a file mounted into the container`,
    );
  }
  want(commandLine(services.postgres).includes('ssl=on'), 'postgres: must run with ssl=on');
  const natsConfig = composeMountTargets(services.nats ?? {}).find((target) =>
    commandLine(services.nats).includes(`--config ${target}`),
  );
  want(
    natsConfig && (services.nats.volumes ?? []).some((v) => String(v).includes('infra/nats/nats-server.conf')),
    'nats: must run infra/nats/nats-server.conf (--config), TLS and per-service users',
  );
  return problems;
}
