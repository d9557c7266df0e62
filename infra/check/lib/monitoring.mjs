// Observability objects (issue 16, items 3 and 4): the Prometheus Operator's custom
// resources validated against their real CRD schemas (vendored in
// schemas/prometheus-operator, see its README), every PromQL expression (alerts,
// recording rules, the Grafana dashboard, the prometheus-adapter rule) parsed with
// Prometheus' own grammar (@prometheus-io/lezer-promql) and held to the series the
// services export (infra/observability/metrics-catalogue.json), and the rules that tie
// metrics ports, Services, ServiceMonitors, NetworkPolicies and the HPA together.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { parser } from '@prometheus-io/lezer-promql';
import { parse } from 'yaml';
import { describe, K8S_ROOT, render } from './kubernetes.mjs';
import { collectProblems, INFRA_ROOT } from './util.mjs';

export const OBSERVABILITY_ROOT = join(INFRA_ROOT, 'observability');
const CRD_DIR = join(INFRA_ROOT, 'check', 'schemas', 'prometheus-operator');
const SERVICES = ['verifier', 'ecosystem', 'status-list'];
/** METRICS_PORT per service (packages/service-kit, the issue 16 brief). */
export const METRICS_PORTS = { verifier: 9101, ecosystem: 9102, 'status-list': 9103 };
export const MONITORING_NAMESPACE = 'monitoring';
/** Overlays that must include components/monitoring (ServiceMonitors, PrometheusRule). */
export const MONITORED_OVERLAYS = ['prod'];
/** The alerts issue 16 asks for; TesseraHighLatencyP99 once per service. */
export const REQUIRED_ALERTS = [
  'TesseraHighErrorRate',
  'TesseraHighLatencyP99',
  'TesseraTargetDown',
  'TesseraNatsUnavailable',
  'TesseraDatabaseUnavailable',
  'TesseraVerificationFailuresJumped',
  'TesseraStatusListFetchFailures',
  'TesseraPurgeStalled',
  'TesseraWebhookBacklog',
];
export const REQUEST_RATE_METRIC = 'tessera_http_requests_per_second';

export const isCustomResource = (object) => String(object.apiVersion).startsWith('monitoring.coreos.com/');

// ---------------------------------------------------------------- CRD schemas

/**
 * The API server prunes fields a structural schema does not define; a misspelt field
 * would silently vanish. Closing every object schema that lists its properties (unless
 * it preserves unknown fields) turns that into a validation error.
 */
function closeObjects(schema) {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closeObjects(v)]))
        : closeObjects(value),
    ]),
  );
  if (
    schema.type === 'object' &&
    schema.properties &&
    !schema['x-kubernetes-preserve-unknown-fields'] &&
    schema.additionalProperties === undefined
  )
    out.additionalProperties = false;
  if (schema['x-kubernetes-int-or-string']) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  return out;
}

let validators;
/** `apiVersion kind` -> ajv validator, from the vendored CustomResourceDefinitions. */
export function crdValidators() {
  if (validators) return validators;
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    formats: { int64: true, int32: true, 'date-time': true },
    // Go's RE2 writes case-insensitivity inline, `^(?i)…`; JavaScript takes it as a flag.
    code: {
      regExp: Object.assign(
        (pattern, flags) =>
          pattern.includes('(?i)') ? new RegExp(pattern.replace('(?i)', ''), `${flags}i`) : new RegExp(pattern, flags),
        { code: 'RegExp' },
      ),
    },
  });
  validators = new Map();
  for (const file of readdirSync(CRD_DIR).filter((f) => f.endsWith('.yaml'))) {
    const crd = parse(readFileSync(join(CRD_DIR, file), 'utf8'));
    for (const version of crd.spec.versions) {
      const schema = closeObjects(version.schema.openAPIV3Schema);
      validators.set(`${crd.spec.group}/${version.name} ${crd.spec.names.kind}`, {
        validate: ajv.compile(schema),
        crdVersion: crd.metadata.annotations['operator.prometheus.io/version'],
      });
    }
  }
  return validators;
}

/** Validates the monitoring.coreos.com objects against their CRD schemas; returns problems. */
export function validateCustomResources(objects) {
  const problems = [];
  for (const object of objects.filter(isCustomResource)) {
    const entry = crdValidators().get(`${object.apiVersion} ${object.kind}`);
    if (!entry) {
      problems.push(`${describe(object)}: no vendored CRD for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    if (!entry.validate(object)) {
      problems.push(
        ...entry.validate.errors.map(
          (e) =>
            `${describe(object)}: ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`,
        ),
      );
    }
  }
  return problems;
}

// ---------------------------------------------------------------- PromQL

export function loadCatalogue() {
  const catalogue = JSON.parse(readFileSync(join(OBSERVABILITY_ROOT, 'metrics-catalogue.json'), 'utf8'));
  /** series name -> its own labels (histograms expand to their three series). */
  const series = new Map();
  for (const [name, { type, labels }] of Object.entries(catalogue.series)) {
    if (type === 'histogram') {
      series.set(`${name}_bucket`, [...labels, 'le']);
      series.set(`${name}_sum`, labels);
      series.set(`${name}_count`, labels);
    } else series.set(name, labels);
  }
  return { series, targetLabels: catalogue.targetLabels, exported: catalogue.series };
}

/**
 * Runtime: the series the catalogue says `service` exports, each declared with its type
 * in the service's own /metrics text (prom-client writes `# TYPE` even before a value).
 */
export function missingFromScrape(service, text, { exported }) {
  const declared = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
  return Object.entries(exported)
    .filter(([, entry]) => (entry.services ?? SERVICES).includes(service))
    .filter(([name, entry]) => declared.get(name) !== entry.type)
    .map(
      ([name, entry]) =>
        `${name}: ${declared.has(name) ? `declared ${declared.get(name)}, catalogue says ${entry.type}` : 'not exported'}`,
    );
}

/**
 * Parses one expression; returns problems: syntax errors, series not in the catalogue
 * (nor recorded by a rule, `recorded`), and label matchers naming a label the series
 * does not have.
 */
export function checkPromql(expr, { series, targetLabels }, recorded = new Set()) {
  const problems = [];
  const tree = parser.parse(expr);
  const text = (node) => expr.slice(node.from, node.to);
  // by (…), without (…), on (…), ignoring (…), group_left (…): labels of some series used here.
  const grouping = [];
  const available = new Set(targetLabels);
  let unknownLabels = false;
  tree.iterate({
    enter(node) {
      if (node.name === 'GroupingLabels') {
        node.node.cursor().iterate((child) => {
          if (child.name === 'LabelName') grouping.push(text(child));
        });
        return false;
      }
      if (node.type.isError) {
        problems.push(
          `syntax error at ${node.from}: …${expr.slice(Math.max(0, node.from - 20), node.from + 20).replace(/\s+/g, ' ')}…`,
        );
        return false;
      }
      if (node.name !== 'VectorSelector') return undefined;
      const identifier = node.node.getChild('Identifier');
      if (!identifier) {
        problems.push(`selector without a metric name: ${text(node)}`);
        return false;
      }
      const name = text(identifier);
      if (recorded.has(name)) {
        unknownLabels = true;
        return false;
      }
      if (!series.has(name)) {
        problems.push(`series ${name} is not exported (infra/observability/metrics-catalogue.json)`);
        return false;
      }
      const allowed = new Set([...series.get(name), ...targetLabels]);
      for (const label of allowed) available.add(label);
      node.node.cursor().iterate((child) => {
        if (child.name === 'LabelName' && !allowed.has(text(child)))
          problems.push(`${name} has no label ${text(child)}`);
      });
      return false;
    },
  });
  if (!unknownLabels)
    for (const label of grouping)
      if (!available.has(label)) problems.push(`no series here has the label ${label} it groups or matches by`);
  return problems;
}

/** Every alert and recording rule of the PrometheusRules, checked with `checkPromql`. */
export function checkRuleExpressions(objects, catalogue) {
  const problems = [];
  const rules = objects
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) => o.spec.groups.flatMap((g) => g.rules.map((rule) => ({ owner: describe(o), group: g.name, rule }))));
  const recorded = new Set(rules.map(({ rule }) => rule.record).filter(Boolean));
  for (const { owner, group, rule } of rules) {
    for (const problem of checkPromql(rule.expr, catalogue, recorded))
      problems.push(`${owner} ${group}/${rule.alert ?? rule.record}: ${problem}`);
    if (rule.alert) {
      if (!rule.labels?.severity) problems.push(`${owner} ${rule.alert}: no severity label`);
      if (!rule.annotations?.summary || !rule.annotations?.description)
        problems.push(`${owner} ${rule.alert}: summary and description annotations expected`);
    }
  }
  return { problems, alerts: rules.filter(({ rule }) => rule.alert).map(({ rule }) => rule) };
}

// ---------------------------------------------------------------- Grafana dashboard

export const DASHBOARD_FILE = join(OBSERVABILITY_ROOT, 'grafana', 'dashboards', 'tessera.json');

/** Grafana's own variables become values PromQL accepts ($__rate_interval -> a duration). */
function expandGrafanaVariables(expr) {
  return expr
    .replace(/\$__(rate_)?interval|\$__range/g, '5m')
    .replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (_, a, b) => `grafana_${a ?? b}`);
}

/** Panels (with the rows' nested panels) and what each one queries. */
function dashboardPanels(dashboard) {
  return (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

/** Valid JSON, a Prometheus datasource, the panels issue 16 names, and only exported series. */
export function checkDashboard(catalogue) {
  const { problems, want } = collectProblems();
  let dashboard;
  try {
    dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8'));
  } catch (error) {
    return { problems: [`${relative(INFRA_ROOT, DASHBOARD_FILE)}: ${error.message}`] };
  }
  want(dashboard.uid && dashboard.title, 'dashboard: uid and title expected');
  const panels = dashboardPanels(dashboard);
  const queries = [];
  for (const panel of panels.filter((p) => p.type !== 'row')) {
    want(panel.title, `panel ${panel.id}: no title`);
    want((panel.targets ?? []).length > 0, `panel "${panel.title}": no query`);
    for (const target of panel.targets ?? []) queries.push({ where: `panel "${panel.title}"`, expr: target.expr });
  }
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
    // label_values(<selector>, <label>): the selector is PromQL.
    const selector = /^label_values\((.*),\s*\w+\)$/.exec(query ?? '')?.[1];
    want(selector, `variable ${variable.name}: label_values(<series>, <label>) expected, got ${query}`);
    if (selector) queries.push({ where: `variable ${variable.name}`, expr: selector });
  }
  for (const { where, expr } of queries) {
    if (!want(typeof expr === 'string' && expr.trim(), `${where}: empty expr`)) continue;
    for (const problem of checkPromql(expandGrafanaVariables(expr), catalogue)) problems.push(`${where}: ${problem}`);
  }
  const titles = panels.map((p) => p.title?.toLowerCase() ?? '');
  for (const needed of [
    'requests',
    'errors',
    'latency',
    'verifications by outcome',
    'per replica',
    'intent resolutions',
    'cache hit ratio',
  ]) {
    want(
      titles.some((t) => t.includes(needed)),
      `dashboard: no panel titled "…${needed}…" (issue 16, item 4)`,
    );
  }
  // Per service: the traffic, error and latency panels group by, or select, the label "service".
  for (const needed of ['requests', 'errors', 'latency']) {
    want(
      panels.some(
        (p) =>
          p.title?.toLowerCase().includes(needed) &&
          (p.targets ?? []).some((t) => /by \([^)]*\bservice\b|service=~"\$service"/.test(t.expr)),
      ),
      `dashboard: no "${needed}" panel per service`,
    );
  }
  return { problems, panels: panels.length, queries: queries.length };
}

// ---------------------------------------------------------------- prometheus-adapter

export const ADAPTER_FILE = join(OBSERVABILITY_ROOT, 'prometheus-adapter-rules.yaml');

/** The adapter rule exists, names REQUEST_RATE_METRIC, and its query parses with exported series only. */
export function checkAdapterRules(catalogue) {
  const problems = [];
  const config = parse(readFileSync(ADAPTER_FILE, 'utf8'));
  const rule = (config.rules?.custom ?? []).find((r) => r.name?.as === REQUEST_RATE_METRIC);
  if (!rule) return [`${relative(INFRA_ROOT, ADAPTER_FILE)}: no rule names ${REQUEST_RATE_METRIC}`];
  const seriesName = /^(\w+)/.exec(rule.seriesQuery)?.[1];
  problems.push(...checkPromql(rule.seriesQuery, catalogue).map((p) => `seriesQuery: ${p}`));
  if (!new RegExp(rule.name.matches).test(seriesName))
    problems.push(`name.matches ${rule.name.matches} does not match ${seriesName}`);
  for (const label of ['namespace', 'pod'])
    if (!rule.resources?.overrides?.[label])
      problems.push(`resources.overrides.${label} missing: the HPA's Pods metric needs it`);
  const query = rule.metricsQuery
    .replaceAll('<<.Series>>', seriesName)
    .replaceAll('<<.LabelMatchers>>', 'namespace="tessera"')
    .replaceAll('<<.GroupBy>>', 'pod');
  problems.push(...checkPromql(query, catalogue).map((p) => `metricsQuery: ${p}`));
  return problems;
}

/**
 * Renders the prod overlay with the hpa-request-rate component (opt-in, so no overlay
 * includes it) from a scratch kustomization; returns its objects.
 */
export async function renderWithRequestRate() {
  const dir = join(INFRA_ROOT, 'node_modules', '.cache', 'infra-check', 'prod-request-rate');
  mkdirSync(dir, { recursive: true });
  const up = relative(dir, K8S_ROOT);
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ${up}/overlays/prod\ncomponents:\n  - ${up}/components/hpa-request-rate\n`,
  );
  return render(dir);
}

/** The HPA with the request-rate component: CPU kept, the Pods metric the adapter rule serves. */
export function checkRequestRateHpa(objects) {
  const problems = [];
  const hpa = objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'verifier');
  if (!hpa) return ['HorizontalPodAutoscaler verifier missing'];
  if (!hpa.spec.metrics.some((m) => m.type === 'Resource' && m.resource.name === 'cpu'))
    problems.push('HPA verifier: CPU must stay (it works without the adapter)');
  const pods = hpa.spec.metrics.find((m) => m.type === 'Pods');
  if (pods?.pods.metric.name !== REQUEST_RATE_METRIC)
    problems.push(`HPA verifier: a Pods metric ${REQUEST_RATE_METRIC} expected`);
  else if (pods.pods.target.type !== 'AverageValue' || !pods.pods.target.averageValue)
    problems.push('HPA verifier: the request-rate target must be an AverageValue per pod');
  return problems;
}

// ---------------------------------------------------------------- Kubernetes rules

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);
const portsOf = (rule) => (rule.ports ?? []).map((p) => p.port);

/**
 * Every overlay: each Deployment has the container port `metrics` at METRICS_PORT, set in
 * its ConfigMap, and no public Service or Ingress reaches it. With `monitoring` (prod):
 * a metrics Service, a ServiceMonitor that selects it, scrapes admitted from the
 * monitoring namespace only, and the PrometheusRule with the alerts issue 16 asks for.
 */
export function monitoringRules(objects, { monitoring }) {
  const { problems, want } = collectProblems();
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const configMaps = new Map(byKind('ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
  for (const service of SERVICES) {
    const port = METRICS_PORTS[service];
    const deployment = byKind('Deployment').find((o) => o.metadata.name === service);
    if (!want(deployment, `Deployment ${service} missing`)) continue;
    const podLabels = deployment.spec.template.metadata.labels;
    const container = deployment.spec.template.spec.containers[0];
    want(
      container.ports?.some((p) => p.name === 'metrics' && p.containerPort === port),
      `Deployment ${service}: container port "metrics" ${port} missing`,
    );
    const config = configMaps.get(container.envFrom?.find((s) => s.configMapRef)?.configMapRef.name) ?? {};
    want(
      String(config.METRICS_PORT) === String(port),
      `Deployment ${service}: METRICS_PORT should be ${port} in its ConfigMap, is ${config.METRICS_PORT}`,
    );

    const services = byKind('Service').filter(
      (s) => matches(s.spec.selector, podLabels) && Object.keys(s.spec.selector ?? {}).length > 0,
    );
    const metricsServices = services.filter((s) =>
      s.spec.ports.some((p) => p.targetPort === 'metrics' || p.targetPort === port),
    );
    for (const s of metricsServices)
      want(
        s.spec.ports.every((p) => p.targetPort === 'metrics' || p.targetPort === port),
        `Service ${s.metadata.name}: exposes /metrics beside other ports`,
      );
    const publicService = byKind('Service').find((s) => s.metadata.name === service);
    want(
      publicService && !metricsServices.includes(publicService),
      `Service ${service} (public) must not expose the metrics port`,
    );
    for (const ingress of byKind('Ingress')) {
      for (const path of (ingress.spec.rules ?? []).flatMap((r) => r.http?.paths ?? [])) {
        want(
          !metricsServices.some((s) => s.metadata.name === path.backend.service.name),
          `Ingress ${ingress.metadata.name}: routes to the metrics Service ${path.backend.service.name}`,
        );
      }
    }
    // Only the monitoring namespace is admitted to the metrics port.
    const policies = byKind('NetworkPolicy').filter((p) => matches(p.spec.podSelector.matchLabels, podLabels));
    const admitting = policies.flatMap((p) =>
      (p.spec.ingress ?? [])
        .filter((rule) => rule.ports === undefined || portsOf(rule).includes(port))
        .map((rule) => ({ policy: p, rule })),
    );
    for (const { policy, rule } of admitting) {
      const onlyMonitoring =
        (rule.from ?? []).length > 0 &&
        rule.from.every(
          (peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === MONITORING_NAMESPACE,
        );
      want(
        onlyMonitoring,
        `NetworkPolicy ${policy.metadata.name}: admits ${service}:${port} (/metrics) from outside the namespace "${MONITORING_NAMESPACE}"`,
      );
    }
    if (!monitoring) continue;
    want(admitting.length > 0, `NetworkPolicy: nothing admits Prometheus to ${service}:${port}`);
    const metricsService = metricsServices[0];
    if (!want(metricsService, `Service ${service}-metrics: no Service exposes ${service}'s metrics port`)) continue;
    want(
      metricsService.spec.clusterIP === 'None',
      `Service ${metricsService.metadata.name}: headless expected (Prometheus scrapes each pod)`,
    );
    const portName = metricsService.spec.ports[0].name;
    const monitor = byKind('ServiceMonitor').find((m) =>
      matches(m.spec.selector.matchLabels, metricsService.metadata.labels),
    );
    if (!want(monitor, `ServiceMonitor: none selects Service ${metricsService.metadata.name}`)) continue;
    want(
      !byKind('Service').some(
        (s) => s !== metricsService && matches(monitor.spec.selector.matchLabels, s.metadata.labels),
      ),
      `ServiceMonitor ${monitor.metadata.name}: selects more than the metrics Service`,
    );
    const endpoint = monitor.spec.endpoints?.[0];
    want(
      endpoint?.port === portName && (endpoint.path ?? '/metrics') === '/metrics',
      `ServiceMonitor ${monitor.metadata.name}: endpoint port ${portName}, path /metrics expected`,
    );
    want(
      endpoint?.honorLabels === true,
      `ServiceMonitor ${monitor.metadata.name}: honorLabels must be true (the series' own "service" label)`,
    );
    want(
      endpoint?.relabelings?.some((r) => r.targetLabel === 'service'),
      `ServiceMonitor ${monitor.metadata.name}: must set the target label "service" (dashboards and alerts group by it)`,
    );
  }
  if (monitoring) {
    const alerts = byKind('PrometheusRule')
      .flatMap((o) => o.spec.groups.flatMap((g) => g.rules))
      .filter((r) => r.alert);
    for (const name of REQUIRED_ALERTS)
      want(
        alerts.some((a) => a.alert === name),
        `PrometheusRule: alert ${name} missing`,
      );
    for (const service of SERVICES)
      want(
        alerts.some((a) => a.alert === 'TesseraHighLatencyP99' && a.expr.includes(`service="${service}"`)),
        `PrometheusRule: no p99 latency alert for ${service}`,
      );
  }
  return problems;
}
