// docker-compose.yml's optional profile "observability" (issue 16, item 4): Prometheus
// scraping each service's METRICS_PORT, Grafana provisioned with the Tessera dashboard
// and a Prometheus data source, an OpenTelemetry Collector exporting to Jaeger. Checks
// the compose services and the configuration files they mount, which must agree.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { interpolate } from './compose.mjs';
import { METRICS_PORTS } from './monitoring.mjs';
import { collectProblems, REPO_ROOT } from './util.mjs';

export const PROFILE = 'observability';
const PROFILE_SERVICES = ['prometheus', 'grafana', 'otel-collector', 'jaeger'];
/** `name:tag` with a version in the tag, or `@sha256:` — never latest or a bare name. */
const PINNED = /^[\w./-]+(:v?\d[\w.-]*)?(@sha256:[0-9a-f]{64})?$/;

/** `./host/path:/container/path[:ro]` mounts of a compose service, as { host, target }. */
function bindMounts(service) {
  return (service.volumes ?? [])
    .map((v) => (typeof v === 'string' ? v.split(':') : [v.source, v.target]))
    .filter(([host]) => host?.startsWith('./'))
    .map(([host, target]) => ({ host: join(REPO_ROOT, host), target }));
}

/** The host file behind a container path, through the service's bind mounts. */
function hostFileFor(service, containerPath) {
  for (const { host, target } of bindMounts(service)) {
    if (containerPath === target) return host;
    if (containerPath.startsWith(`${target}/`)) return join(host, posix.relative(target, containerPath));
  }
  return undefined;
}

function readYaml(path) {
  return parse(readFileSync(path, 'utf8'));
}

export function composeObservabilityRules(raw) {
  const { problems, want } = collectProblems();
  const compose = interpolate(raw);
  const services = compose.services ?? {};
  for (const [name, service] of Object.entries(services)) {
    if (!PROFILE_SERVICES.includes(name))
      want(!service.profiles, `${name}: must not carry a profile (plain \`docker compose up\` runs it)`);
  }
  for (const name of PROFILE_SERVICES) {
    const service = services[name];
    if (!want(service, `${name}: missing (profile ${PROFILE})`)) continue;
    want(
      JSON.stringify(service.profiles) === JSON.stringify([PROFILE]),
      `${name}: profiles must be ["${PROFILE}"] so a plain \`up\` leaves it out`,
    );
    want(
      PINNED.test(service.image ?? '') && /[:@]/.test(service.image),
      `${name}: image ${service.image} must be pinned to a version tag or digest`,
    );
    for (const port of service.ports ?? [])
      want(String(port).startsWith('127.0.0.1:'), `${name}: port ${port} must be published on 127.0.0.1 only`);
    for (const { host } of bindMounts(service))
      want(existsSync(host), `${name}: mounts ${host.replace(REPO_ROOT, '')}, which does not exist`);
  }
  for (const [service, port] of Object.entries(METRICS_PORTS)) {
    const env = services[service]?.environment ?? {};
    want(String(env.METRICS_PORT) === String(port), `${service}: METRICS_PORT must be ${port}`);
    want(
      'OTEL_EXPORTER_OTLP_ENDPOINT' in env && env.OTEL_EXPORTER_OTLP_ENDPOINT == null,
      `${service}: OTEL_EXPORTER_OTLP_ENDPOINT must be listed without a value (taken from the shell when set)`,
    );
    want(
      !(services[service]?.ports ?? []).some((p) => String(p).endsWith(`:${port}`)),
      `${service}: the metrics port must not be published`,
    );
  }
  if (problems.length > 0) return problems;

  // Prometheus scrapes every service's metrics port, labelled like the ServiceMonitors do.
  const prometheus = services.prometheus;
  const configArg =
    (prometheus.command ?? []).find((a) => a.startsWith('--config.file='))?.slice('--config.file='.length) ??
    '/etc/prometheus/prometheus.yml';
  const promFile = hostFileFor(prometheus, configArg);
  if (want(promFile && existsSync(promFile), `prometheus: ${configArg} is not mounted from the repository`)) {
    const scrapes = readYaml(promFile).scrape_configs ?? [];
    for (const [service, port] of Object.entries(METRICS_PORTS)) {
      const job = scrapes.find((j) => (j.static_configs ?? []).some((c) => c.targets?.includes(`${service}:${port}`)));
      if (!want(job, `prometheus.yml: no scrape of ${service}:${port}`)) continue;
      want(
        job.honor_labels === true && (job.metrics_path ?? '/metrics') === '/metrics',
        `prometheus.yml: the job scraping ${service} needs honor_labels: true and /metrics`,
      );
      want(
        job.static_configs.find((c) => c.targets.includes(`${service}:${port}`)).labels?.service === service,
        `prometheus.yml: ${service}:${port} must carry the label service="${service}"`,
      );
    }
  }

  // Grafana: a Prometheus data source at the profile's Prometheus, the dashboard provisioned.
  const grafana = services.grafana;
  const provisioning = hostFileFor(grafana, '/etc/grafana/provisioning');
  if (
    want(
      provisioning && existsSync(provisioning),
      'grafana: /etc/grafana/provisioning is not mounted from infra/observability',
    )
  ) {
    const datasources = readYaml(join(provisioning, 'datasources', 'prometheus.yaml')).datasources ?? [];
    want(
      datasources.some((d) => d.type === 'prometheus' && d.url === 'http://prometheus:9090' && d.isDefault),
      'grafana: no default Prometheus data source at http://prometheus:9090',
    );
    const providers = readYaml(join(provisioning, 'dashboards', 'tessera.yaml')).providers ?? [];
    const dashboardDir = providers.find((p) => p.type === 'file')?.options?.path;
    const hostDir = dashboardDir && hostFileFor(grafana, dashboardDir);
    want(
      hostDir && existsSync(join(hostDir, 'tessera.json')),
      `grafana: the dashboard provider's path ${dashboardDir} does not hold infra/observability/grafana/dashboards/tessera.json`,
    );
  }

  // The collector receives OTLP over HTTP and exports traces to Jaeger's OTLP port.
  const collector = services['otel-collector'];
  const configPath = (collector.command ?? []).find((a) => a.startsWith('--config='))?.slice('--config='.length);
  const collectorFile = configPath && hostFileFor(collector, configPath);
  if (
    want(
      collectorFile && existsSync(collectorFile),
      'otel-collector: its --config file is not mounted from infra/observability',
    )
  ) {
    const config = readYaml(collectorFile);
    want(
      config.receivers?.otlp?.protocols?.http?.endpoint?.endsWith(':4318'),
      'otel-collector: the OTLP HTTP receiver must listen on 4318 (OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318)',
    );
    const traces = config.service?.pipelines?.traces;
    const jaegerExporter = (traces?.exporters ?? []).find((e) =>
      /^jaeger:4317$/.test(config.exporters?.[e]?.endpoint ?? ''),
    );
    want(
      traces?.receivers?.includes('otlp') && jaegerExporter,
      'otel-collector: the traces pipeline must take otlp and export to jaeger:4317',
    );
    want(collector.depends_on?.jaeger, 'otel-collector: must start after jaeger');
  }
  want(
    String(services.jaeger.environment?.COLLECTOR_OTLP_ENABLED) === 'true',
    'jaeger: COLLECTOR_OTLP_ENABLED must be "true"',
  );
  return problems;
}
