// Kustomize rendering (kubectl kustomize), schema validation of every object against the
// Kubernetes OpenAPI schemas shipped by kubernetes-models (types, formats, required
// fields, enums) plus a strict unknown-field check (TypeScript's excess-property check
// against the same models' types), and the cross-object rules of issue 6, item 4.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { edgeRules, selectorMatches } from './edges.mjs';
import { keyRules } from './keys.mjs';
import { trustedProxyRules } from './trusted-proxies.mjs';
import { workloadRules } from './workload-rules.mjs';
import { assert, CheckFailure, collectProblems, INFRA_ROOT, REPO_ROOT, run, hasDatabase } from './util.mjs';

const require = createRequire(import.meta.url);

export const OVERLAYS = ['dev', 'prod'];
export const K8S_ROOT = join(INFRA_ROOT, 'k8s');

export async function findKubectl() {
  const result = await run('kubectl', ['version', '--client'], { timeoutMs: 30_000 }).catch(() => undefined);
  if (!result || result.code !== 0) {
    throw new CheckFailure(
      'kubectl is not installed (the machine image has it; on Debian: apt-get install kubernetes-client is too old for kustomize v5 — see infra/README.md)',
    );
  }
  return result.stdout.split('\n').filter(Boolean).join(', ');
}

/** `kubectl kustomize <dir>` parsed into objects. */
export async function render(dir) {
  const result = await run('kubectl', ['kustomize', dir], { timeoutMs: 60_000 });
  if (result.code !== 0) throw new CheckFailure(`kubectl kustomize ${dir} failed:\n${result.stderr.trim()}`);
  return parseYamlDocuments(result.stdout, dir);
}

export function parseYamlDocuments(text, source) {
  const docs = parseAllDocuments(text);
  const objects = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new CheckFailure(`${source}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value) objects.push(value);
  }
  return objects;
}

/** The kubernetes-models module of an object, e.g. `kubernetes-models/apps/v1/Deployment`. */
function modelPath(object) {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : [undefined, object.apiVersion];
  return `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
}

export function describe(object) {
  return `${object.kind}/${object.metadata?.name}`;
}

/**
 * Kustomize folds long base64 Secret values over several lines; the API server's decoder
 * (Go's base64.StdEncoding) skips newlines, the schema's "byte" format does not.
 */
function normalizeForValidation(object) {
  if (object.kind !== 'Secret' || !object.data) return object;
  return {
    ...object,
    data: Object.fromEntries(
      Object.entries(object.data).map(([key, value]) => [key, String(value).replace(/[\r\n]/g, '')]),
    ),
  };
}

/** Validates each object with its model's compiled OpenAPI schema; returns problems. */
export function validateSchemas(objects) {
  const problems = [];
  for (const object of objects) {
    let Model;
    try {
      Model = require(modelPath(object))[object.kind];
    } catch {
      problems.push(`${describe(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(normalizeForValidation(object)).validate();
    } catch (error) {
      problems.push(`${describe(object)}: ${error.message}`);
    }
  }
  return problems;
}

/**
 * Unknown or misspelt fields pass JSON-schema validation (the Kubernetes schemas allow
 * additional properties; the API server would drop or reject them). Type each object
 * as its model's interface in a generated TypeScript file: tsc reports every excess property.
 */
export async function checkUnknownFields(objectsByOverlay) {
  const dir = join(INFRA_ROOT, 'node_modules', '.cache', 'infra-check');
  mkdirSync(dir, { recursive: true });
  const imports = new Map();
  const lines = [];
  for (const [overlay, objects] of objectsByOverlay) {
    objects.forEach((object, index) => {
      const path = modelPath(object);
      const alias = `I${imports.size}`;
      if (!imports.has(path)) imports.set(path, { alias, name: `I${object.kind}` });
      const { alias: typeAlias } = imports.get(path);
      lines.push(
        `// ${overlay}: ${describe(object)}`,
        `export const o_${overlay}_${index}: ${typeAlias} = ${JSON.stringify(object, null, 1)};`,
      );
    });
  }
  const header = [...imports].map(([path, { alias, name }]) => `import type { ${name} as ${alias} } from '${path}';`);
  writeFileSync(join(dir, 'objects.ts'), [...header, ...lines].join('\n'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'commonjs',
        moduleResolution: 'node',
        skipLibCheck: true,
        types: [],
      },
      files: ['objects.ts'],
    }),
  );
  const tsc = join(INFRA_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeoutMs: 120_000 });
  if (result.code === 0) return [];
  const source = readFileSync(join(dir, 'objects.ts'), 'utf8').split('\n');
  return result.stdout
    .split('\n')
    .filter((line) => /error TS/.test(line))
    .map((line) => {
      const match = /objects\.ts\((\d+),\d+\): error TS\d+: (.*)/.exec(line);
      if (!match) return line;
      const lineNo = Number(match[1]);
      const owner = source
        .slice(0, lineNo)
        .reverse()
        .find((l) => l.startsWith('// '));
      return `${owner?.slice(3) ?? '?'}: ${match[2]}`;
    });
}

const SERVICES = ['verifier', 'ecosystem', 'status-list', 'console'];
const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

/**
 * Cross-object rules: probes, resources, security context, migrate init containers (no Jobs), HPA, PDBs,
 * Services, ConfigMap and Secret references, NetworkPolicies. Returns problems.
 */
export function checkRules(overlay, objects, { providedSecrets, ports, examples = [] }) {
  const { problems, want } = collectProblems();
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const find = (kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
  const configMaps = new Map(byKind('ConfigMap').map((o) => [o.metadata.name, o]));
  const secrets = new Map(byKind('Secret').map((o) => [o.metadata.name, o]));
  const namespaces = new Set(objects.map((o) => o.metadata?.namespace).filter(Boolean));
  want(namespaces.size === 1, `all objects in one namespace, found ${[...namespaces].join(', ') || 'none'}`);

  // Issue 17, item 2: a Job's pod template is immutable, so a migration Job in the applied set
  // collides with the next release (and a GitOps tool re-creates one its TTL deleted).
  for (const job of byKind('Job'))
    problems.push(
      `${describe(job)}: no Jobs in the applied set (migrations run as each Deployment's init container \`migrate\`)`,
    );
  const podSpecs = [
    ...byKind('Deployment').map((o) => ({
      owner: o,
      spec: o.spec.template.spec,
      labels: o.spec.template.metadata?.labels,
    })),
    ...byKind('StatefulSet').map((o) => ({
      owner: o,
      spec: o.spec.template.spec,
      labels: o.spec.template.metadata?.labels,
    })),
    ...byKind('Job').map((o) => ({ owner: o, spec: o.spec.template.spec, labels: o.spec.template.metadata?.labels })),
  ];
  // Every reference resolves: ConfigMaps here, Secrets here or named by the overlay as provided.
  for (const { owner, spec } of podSpecs) {
    for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef)
          want(
            configMaps.has(source.configMapRef.name) || source.configMapRef.optional,
            `${describe(owner)}: envFrom ConfigMap ${source.configMapRef.name} does not exist`,
          );
      }
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref || ref.optional) continue;
        const generated = secrets.get(ref.name);
        const known = generated
          ? Object.keys({ ...generated.data, ...generated.stringData })
          : providedSecrets.get(ref.name);
        want(known, `${describe(owner)}: Secret ${ref.name} is neither generated nor listed in secret.example.yaml`);
        if (known) want(known.includes(ref.key), `${describe(owner)}: Secret ${ref.name} has no key ${ref.key}`);
      }
      for (const volume of spec.volumes ?? []) {
        if (volume.configMap)
          want(
            configMaps.has(volume.configMap.name),
            `${describe(owner)}: volume ConfigMap ${volume.configMap.name} does not exist`,
          );
        if (volume.secret && !volume.secret.optional)
          want(
            secrets.has(volume.secret.secretName) || providedSecrets.has(volume.secret.secretName),
            `${describe(owner)}: volume Secret ${volume.secret.secretName} is neither generated nor listed in secret.example.yaml`,
          );
      }
    }
  }

  for (const service of SERVICES) {
    const deployment = find('Deployment', service);
    if (!want(deployment, `Deployment ${service} missing`)) continue;
    const pod = deployment.spec.template;
    want(
      matches(deployment.spec.selector.matchLabels, pod.metadata.labels),
      `Deployment ${service}: selector does not match its pod labels`,
    );
    const container = pod.spec.containers[0];
    const port = container.ports?.find((p) => p.name === 'http');
    want(
      port?.containerPort === ports[service],
      `Deployment ${service}: containerPort http should be ${ports[service]}`,
    );
    want(
      container.readinessProbe?.httpGet?.path === '/health/ready',
      `Deployment ${service}: readinessProbe must GET /health/ready`,
    );
    want(container.livenessProbe?.httpGet?.path === '/health', `Deployment ${service}: livenessProbe must GET /health`);
    for (const kind of ['requests', 'limits']) {
      want(
        container.resources?.[kind]?.cpu && container.resources?.[kind]?.memory,
        `Deployment ${service}: resources.${kind} needs cpu and memory`,
      );
    }
    const security = { ...pod.spec.securityContext, ...container.securityContext };
    want(
      security.runAsNonRoot === true &&
        security.allowPrivilegeEscalation === false &&
        security.readOnlyRootFilesystem === true,
      `Deployment ${service}: must run as non-root, read-only, without privilege escalation`,
    );
    want(
      container.securityContext?.capabilities?.drop?.includes('ALL'),
      `Deployment ${service}: must drop ALL capabilities`,
    );
    want(!container.command, `Deployment ${service}: must not override the image's entrypoint (tini)`);
    const configName = container.envFrom?.find((s) => s.configMapRef)?.configMapRef.name;
    const config = configMaps.get(configName)?.data ?? {};
    if (hasDatabase(service))
      want(
        config.MIGRATE_ON_START === 'false',
        `Deployment ${service}: MIGRATE_ON_START must be "false" (the migrate init container migrates)`,
      );
    want(config.NODE_ENV === 'production', `Deployment ${service}: NODE_ENV must be "production"`);
    want(
      String(config.PORT) === String(ports[service]),
      `Deployment ${service}: PORT ${config.PORT} != containerPort ${ports[service]}`,
    );

    const migrate = migrateContainerOf(deployment);
    // The console has no database: nothing to migrate, and no DATABASE_URL anywhere in its pod.
    if (!hasDatabase(service))
      want(
        !migrate &&
          ![...(pod.spec.initContainers ?? []), ...pod.spec.containers].some((c) =>
            c.env?.some((v) => v.name === 'DATABASE_URL'),
          ),
        `Deployment ${service}: has no database, so no migrate init container and no DATABASE_URL`,
      );
    else if (
      want(
        migrate,
        `Deployment ${service}: the first initContainer must be \`migrate\` (migrations before the server starts)`,
      )
    ) {
      want(
        JSON.stringify(migrate.args) === JSON.stringify(['node', 'dist/migrate.js']) && !migrate.command,
        `Deployment ${service}: initContainer migrate: args must be ["node","dist/migrate.js"] (entrypoint kept)`,
      );
      want(
        migrate.image === container.image,
        `Deployment ${service}: initContainer migrate runs ${migrate.image}, the server ${container.image}: they must be the same release`,
      );
      const databaseUrl = (c) => JSON.stringify(c.env?.find((v) => v.name === 'DATABASE_URL')?.valueFrom);
      want(
        databaseUrl(migrate) && databaseUrl(migrate) === databaseUrl(container),
        `Deployment ${service}: initContainer migrate must read DATABASE_URL from the server's Secret`,
      );
      const migrateSecurity = migrate.securityContext ?? {};
      want(
        migrateSecurity.readOnlyRootFilesystem === true &&
          migrateSecurity.allowPrivilegeEscalation === false &&
          migrateSecurity.capabilities?.drop?.includes('ALL'),
        `Deployment ${service}: initContainer migrate must be read-only, without privilege escalation or capabilities`,
      );
      want(
        migrate.resources?.requests?.memory && migrate.resources?.limits?.memory,
        `Deployment ${service}: initContainer migrate needs resources`,
      );
    }

    const svc = find('Service', service);
    if (want(svc, `Service ${service} missing`)) {
      want(
        matches(svc.spec.selector, pod.metadata.labels),
        `Service ${service}: selector does not select the Deployment's pods`,
      );
      want(
        svc.spec.ports.every((p) => p.targetPort === 'http' || p.targetPort === ports[service]),
        `Service ${service}: targetPort must be the container's http port`,
      );
    }

    const pdb = find('PodDisruptionBudget', service);
    if (pdb) {
      want(
        matches(pdb.spec.selector.matchLabels, pod.metadata.labels),
        `PodDisruptionBudget ${service}: selector does not select the Deployment's pods`,
      );
      const replicas =
        service === 'verifier'
          ? find('HorizontalPodAutoscaler', 'verifier')?.spec.minReplicas
          : deployment.spec.replicas;
      want((replicas ?? 1) >= 2, `PodDisruptionBudget ${service}: with fewer than 2 replicas it blocks every eviction`);
    } else {
      want(overlay === 'dev', `PodDisruptionBudget ${service} missing`);
    }

    // NetworkPolicy: the service's port is open to someone (edges.mjs checks the rest).
    const policies = byKind('NetworkPolicy').filter((p) => selectorMatches(p.spec.podSelector, pod.metadata.labels));
    const ingressPorts = policies.flatMap((p) =>
      (p.spec.ingress ?? []).flatMap((rule) => (rule.ports ?? []).map((x) => x.port)),
    );
    want(
      ingressPorts.includes(ports[service]),
      `NetworkPolicy: nothing admits traffic to ${service}:${ports[service]}`,
    );
  }

  const configOf = (service) =>
    configMaps.get(
      find('Deployment', service)?.spec.template.spec.containers[0].envFrom?.find((s) => s.configMapRef)?.configMapRef
        .name,
    )?.data ?? {};
  problems.push(...keyRules(overlay, objects, { examples }));
  problems.push(...workloadRules(overlay, objects));
  problems.push(...trustedProxyRules(objects));
  problems.push(
    ...edgeRules(objects, { config: Object.fromEntries(SERVICES.map((service) => [service, configOf(service)])) }),
  );

  const hpa = find('HorizontalPodAutoscaler', 'verifier');
  if (want(hpa, 'HorizontalPodAutoscaler verifier missing')) {
    want(
      hpa.spec.scaleTargetRef.kind === 'Deployment' && hpa.spec.scaleTargetRef.name === 'verifier',
      'HPA verifier: must target Deployment verifier',
    );
    want(
      hpa.spec.metrics?.some((m) => m.resource?.name === 'cpu'),
      'HPA verifier: must scale on CPU',
    );
    want(
      find('Deployment', 'verifier')?.spec.replicas === undefined,
      'Deployment verifier: must not set replicas (the HPA owns them)',
    );
    want(hpa.spec.minReplicas <= hpa.spec.maxReplicas, 'HPA verifier: minReplicas > maxReplicas');
  }
  for (const ingress of byKind('Ingress')) {
    for (const rule of ingress.spec.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        want(
          find('Service', backend.name),
          `Ingress ${ingress.metadata.name}: backend Service ${backend.name} does not exist`,
        );
      }
    }
  }
  return problems;
}

/** The Deployment's `migrate` init container (the first one), or undefined. */
export function migrateContainerOf(deployment) {
  const first = deployment.spec.template.spec.initContainers?.[0];
  return first?.name === 'migrate' ? first : undefined;
}

/** Secrets the prod overlay expects to be created outside it, from secret.example.yaml. */
export function providedSecretsOf(overlay) {
  const path = join(K8S_ROOT, 'overlays', overlay, 'secret.example.yaml');
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return new Map();
  }
  const objects = parseYamlDocuments(text, path);
  return new Map(
    objects
      .filter((o) => o.kind === 'Secret')
      .map((o) => [o.metadata.name, Object.keys({ ...o.data, ...o.stringData })]),
  );
}

export function repoRelative(path) {
  return path.replace(REPO_ROOT, '');
}

export { assert };
