#!/usr/bin/env node
// Deployment checks that need no container engine (issue 6, item 5). One line per check;
// exits non-zero when any fails.
//
//   node infra/check/run-infra-checks.mjs                 # everything (needs TEST_DATABASE_URL, TEST_NATS_URL)
//   node infra/check/run-infra-checks.mjs --static-only   # Dockerfile, compose, Kustomize only
//   node infra/check/run-infra-checks.mjs --service=verifier [--keep]
//
// Static: Dockerfile lint (dockerfile-utils) and house rules; .dockerignore; docker-compose.yml
// against the Compose Specification schema, dclint and dependency-order rules; `kubectl kustomize`
// of base, dev and prod; every object against the Kubernetes schemas (kubernetes-models), unknown
// fields, and the cross-object rules (probes, resources, Jobs, HPA, PDBs, Services, NetworkPolicies).
// Runtime, per service: carry out its Dockerfile's stages (turbo prune, pnpm install, build,
// pnpm deploy --prod --legacy) into a temp dir, run the Deployment's migrate init container's command with its env
// against a fresh database (twice), start the image's CMD with the image ENV + base ConfigMap +
// Secrets, wait for /health/ready, run the image's HEALTHCHECK, make real HTTP calls, SIGTERM -> 0.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildArgsOf,
  DOCKERFILE,
  dockerfilePath,
  defaultPortOf,
  houseRules,
  lintDockerfile,
} from './lib/dockerfile.mjs';
import { buildLikeDockerfile, loadDockerignore, makeBuildContext, makeToolShims } from './lib/image-build.mjs';
import { missedMutations, MUTATIONS } from './lib/rule-mutations.mjs';
import { baseTrustedProxyRules } from './lib/trusted-proxies.mjs';
import { externalSecretRules, loadExternalSecretExamples } from './lib/external-secrets.mjs';
import { composeRules, loadCompose, runDclint, validateComposeSchema } from './lib/compose.mjs';
import {
  checkRules,
  checkUnknownFields,
  findKubectl,
  K8S_ROOT,
  migrateContainerOf,
  OVERLAYS,
  parseYamlDocuments,
  providedSecretsOf,
  render,
  validateSchemas,
} from './lib/kubernetes.mjs';
import { composeObservabilityRules } from './lib/compose-observability.mjs';
import {
  checkAdapterRules,
  checkDashboard,
  checkRequestRateHpa,
  checkRuleExpressions,
  crdValidators,
  isCustomResource,
  loadCatalogue,
  missingFromScrape,
  MONITORED_OVERLAYS,
  monitoringRules,
  renderWithRequestRate,
  validateCustomResources,
} from './lib/monitoring.mjs';
import { composeTransportRules, transportSecurityRules } from './lib/transport-security.mjs';
import { devTlsRules } from './lib/dev-tls.mjs';
import {
  containerEnv,
  createDatabase,
  dropDatabase,
  EXTRA_SECRETS,
  makeOidc,
  mountVolumes,
  OIDC,
  randomSecrets,
  runInImage,
  sealBundle,
  SMOKE,
  startInImage,
  stop,
  waitReady,
} from './lib/smoke.mjs';
import { assert, CheckFailure, freePort, hasDatabase, REPO_ROOT, Reporter, SERVICE_NAMES } from './lib/util.mjs';

const argv = process.argv.slice(2);
const staticOnly = argv.includes('--static-only');
const keep = argv.includes('--keep');
const only = argv.filter((a) => a.startsWith('--service=')).map((a) => a.slice('--service='.length));
const unknown = argv.filter((a) => !['--static-only', '--keep'].includes(a) && !a.startsWith('--service='));
if (unknown.length > 0 || only.some((s) => !SERVICE_NAMES.includes(s))) {
  console.error(`usage: run-infra-checks.mjs [--static-only] [--service=${SERVICE_NAMES.join('|')}]... [--keep]`);
  process.exit(2);
}
const services = only.length > 0 ? only : SERVICE_NAMES;
const report = new Reporter();
const started = Date.now();
const problemsOrOk = (problems, ok) => {
  if (problems.length > 0) throw new CheckFailure(`\n${problems.map((p) => `    - ${p}`).join('\n')}`);
  return ok;
};
const hasSource = (service) =>
  existsSync(join(REPO_ROOT, 'services', service, 'src', 'main.ts')) &&
  existsSync(join(REPO_ROOT, 'services', service, 'src', 'config.ts'));
const ports = Object.fromEntries(SERVICE_NAMES.filter(hasSource).map((service) => [service, defaultPortOf(service)]));

// ---------------------------------------------------------------- Dockerfile
// One Dockerfile for every service (issue 23, item 3): linted once, its house rules checked
// as it builds each service (SERVICE and PORT build arguments substituted).
if (!existsSync(dockerfilePath())) {
  await report.check('dockerfile', () => {
    throw new CheckFailure(`${DOCKERFILE} is missing`);
  });
} else {
  const text = readFileSync(dockerfilePath(), 'utf8');
  await report.check('dockerfile lint', () => problemsOrOk(lintDockerfile(text), 'dockerfile-utils: no problems'));
  for (const service of services) {
    if (hasSource(service)) {
      await report.check(`dockerfile rules ${service}`, () =>
        problemsOrOk(
          houseRules(service, text),
          `SERVICE=${service} PORT=${defaultPortOf(service)}: multi-stage, turbo prune + pnpm deploy --prod --legacy, pinned tools, USER 1000, tini, HEALTHCHECK, port, env`,
        ),
      );
    } else
      report.skip(`dockerfile rules ${service}`, `services/${service}/src/main.ts or src/config.ts does not exist yet`);
  }
}
await report.check('dockerignore', () => {
  const { excluded } = loadDockerignore();
  const problems = [];
  for (const path of [
    'node_modules',
    'packages/service-kit/node_modules',
    'services/verifier/dist',
    '.git',
    '.data',
    'infra/node_modules',
  ]) {
    if (!excluded(path)) problems.push(`${path} should be excluded from the build context`);
  }
  const needed = [
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    'turbo.json',
    'tsconfig.base.json',
    DOCKERFILE,
    'packages/contracts/src/index.ts',
    'packages/service-kit/src/index.ts',
  ];
  for (const service of services.filter(hasSource))
    needed.push(
      `services/${service}/src/main.ts`,
      `services/${service}/package.json`,
      ...(hasDatabase(service)
        ? [`services/${service}/drizzle/meta/_journal.json`]
        : [`services/${service}/public/console.css`]),
    );
  for (const path of needed) if (excluded(path)) problems.push(`${path} is needed by the image build but excluded`);
  return problemsOrOk(problems, 'dependencies and build output out, sources and manifests in');
});

// ---------------------------------------------------------------- docker-compose.yml
const compose = (() => {
  try {
    return loadCompose();
  } catch (error) {
    return { error };
  }
})();
if (compose.error) {
  await report.check('compose parse', () => {
    throw new CheckFailure(compose.error.message);
  });
} else {
  await report.check('compose schema', () => {
    const { problems, schemaPath, title } = validateComposeSchema(compose.raw);
    return problemsOrOk(problems, `${title} (${schemaPath}), as written and interpolated`);
  });
  await report.check('compose lint', async () => problemsOrOk(await runDclint(), 'dclint, infra/check/dclint.json'));
  await report.check('compose rules', () =>
    problemsOrOk(
      composeRules(compose.raw, ports),
      'postgres, nats (JetStream) healthy -> *-migrate completed -> services healthy',
    ),
  );
  await report.check('compose observability profile', () =>
    problemsOrOk(
      composeObservabilityRules(compose.raw),
      'prometheus scraping each METRICS_PORT, grafana with the dashboard and data source, otel-collector -> jaeger; pinned images, 127.0.0.1 ports',
    ),
  );
  await report.check('compose transport', () =>
    problemsOrOk(
      composeTransportRules(compose.raw),
      "PostgreSQL with ssl=on, verify-full with a mounted CA; NATS on nats-server.conf, tls:// as the service's user, CA and password mounted; no NATS_ALLOW_INSECURE",
    ),
  );
  await report.check('dev tls', () =>
    problemsOrOk(
      devTlsRules(),
      'infra/dev-tls: PostgreSQL and NATS certificates chain to the dev CA, match their keys, name their hosts, valid > 1 year',
    ),
  );
}

// ---------------------------------------------------------------- Kubernetes
const rendered = new Map();
let kubectlOk = await report.check('kubectl', findKubectl);
if (kubectlOk) {
  for (const target of ['base', ...OVERLAYS.map((o) => `overlays/${o}`)]) {
    await report.check(`kustomize ${target}`, async () => {
      const objects = await render(join(K8S_ROOT, target));
      rendered.set(target, objects);
      return `${objects.length} objects`;
    });
  }
  const baseObjects = rendered.get('base');
  if (baseObjects)
    await report.check('k8s base trusted proxies', () =>
      problemsOrOk(
        baseTrustedProxyRules(baseObjects),
        "no TRUST_PROXY in the base: each overlay generates tessera-trusted-proxies (the cluster's pod CIDRs)",
      ),
    );
  for (const overlay of OVERLAYS) {
    const objects = rendered.get(`overlays/${overlay}`);
    if (!objects) continue;
    const examplePath = join(K8S_ROOT, 'overlays', overlay, 'secret.example.yaml');
    const examples = existsSync(examplePath) ? parseYamlDocuments(readFileSync(examplePath, 'utf8'), examplePath) : [];
    // Applied once, outside the overlay: infra/k8s/cluster/ (the Namespace).
    if (overlay === 'prod') examples.push(...clusterObjects());
    const core = objects.filter((o) => !isCustomResource(o));
    await report.check(`k8s schema ${overlay}`, () =>
      problemsOrOk(
        validateSchemas([...core, ...examples]),
        `${core.length + examples.length} objects valid against the Kubernetes OpenAPI schemas (kubernetes-models)`,
      ),
    );
    await report.check(`k8s rules ${overlay}`, () =>
      problemsOrOk(
        checkRules(overlay, objects, { providedSecrets: providedSecretsOf(overlay), ports, examples }),
        'probes, resources, security, migrate init containers, HPA, PDBs, Services, references, NetworkPolicies',
      ),
    );
    await report.check(`k8s transport ${overlay}`, () =>
      problemsOrOk(
        transportSecurityRules(overlay, objects, examples),
        overlay === 'prod'
          ? "PostgreSQL verify-full with tessera-postgres-ca in every pod; NATS tls:// as the service's user, CA and password as files; NATS egress to the NATS pods"
          : "PostgreSQL with ssl=on, verify-full with tessera-postgres-ca in every pod; NATS on nats-server.conf, tls:// as the service's user, CA and password as files",
      ),
    );
  }
  const prod = rendered.get('overlays/prod');
  if (prod) {
    await report.check('k8s rules self-test', () => {
      const examplePath = join(K8S_ROOT, 'overlays', 'prod', 'secret.example.yaml');
      const examples = [...parseYamlDocuments(readFileSync(examplePath, 'utf8'), examplePath), ...clusterObjects()];
      const missed = missedMutations(prod, (objects) => [
        ...checkRules('prod', objects, { providedSecrets: providedSecretsOf('prod'), ports, examples }),
        ...transportSecurityRules('prod', objects, examples),
      ]);
      return problemsOrOk(
        missed.map((name) => `no rule caught: ${name}`),
        `each of ${Object.keys(MUTATIONS).length} mutations of the prod overlay (one per rule) is caught`,
      );
    });
  }
  const all = [...rendered]
    .filter(([target]) => target !== 'base')
    .map(([target, objects]) => [target.replace('overlays/', ''), objects.filter((o) => !isCustomResource(o))]);
  for (const overlay of OVERLAYS) {
    const examplePath = join(K8S_ROOT, 'overlays', overlay, 'secret.example.yaml');
    if (existsSync(examplePath))
      all.push([`${overlay}_secrets`, parseYamlDocuments(readFileSync(examplePath, 'utf8'), examplePath)]);
  }
  all.push(['cluster', clusterObjects()]);
  await report.check('k8s unknown fields', async () =>
    problemsOrOk(
      await checkUnknownFields(all),
      'no field the Kubernetes API does not define (tsc against kubernetes-models types)',
    ),
  );
}

await report.check('external secrets example', () => {
  const objects = loadExternalSecretExamples();
  return problemsOrOk(
    externalSecretRules(objects),
    `${objects.length} objects in infra/external-secrets: v1 API, store defined, tessera-keys kept (Orphan, Retain, keep annotations)`,
  );
});

// ---------------------------------------------------------------- monitoring (issue 16, items 3 and 4)
const catalogue = loadCatalogue();
if (kubectlOk) {
  for (const overlay of OVERLAYS) {
    const objects = rendered.get(`overlays/${overlay}`);
    if (!objects) continue;
    const monitoring = MONITORED_OVERLAYS.includes(overlay);
    await report.check(`monitoring rules ${overlay}`, () =>
      problemsOrOk(
        monitoringRules(objects, { monitoring }),
        monitoring
          ? 'metrics ports, headless metrics Services, a ServiceMonitor each, scrapes from "monitoring" only, the alerts'
          : 'metrics ports at METRICS_PORT, not public',
      ),
    );
    if (!monitoring) continue;
    const custom = objects.filter(isCustomResource);
    await report.check(`monitoring CRD schema ${overlay}`, () => {
      const versions = [...new Set([...crdValidators().values()].map((v) => v.crdVersion))].join(', ');
      return problemsOrOk(
        [
          ...(custom.length === 0 ? ['no ServiceMonitor or PrometheusRule rendered'] : []),
          ...validateCustomResources(custom),
        ],
        `${custom.length} objects valid against the Prometheus Operator ${versions} CRD schemas, no unknown field`,
      );
    });
    await report.check(`monitoring promql ${overlay}`, () => {
      const { problems, alerts } = checkRuleExpressions(objects, catalogue);
      return problemsOrOk(
        problems,
        `${alerts.length} alerts and their recording rules parse (Prometheus' PromQL grammar) and use only exported series and labels`,
      );
    });
  }
  await report.check('monitoring hpa request rate', async () => {
    const objects = await renderWithRequestRate();
    return problemsOrOk(
      [
        ...validateSchemas(objects.filter((o) => !isCustomResource(o))),
        ...checkRequestRateHpa(objects),
        ...checkAdapterRules(catalogue),
      ],
      `prod + components/hpa-request-rate: CPU and the Pods metric the adapter rule serves (${objects.length} objects)`,
    );
  });
}
await report.check('grafana dashboard', () => {
  const { problems, panels, queries } = checkDashboard(catalogue);
  return problemsOrOk(problems, `${panels} panels, ${queries} queries parse and use only exported series`);
});

// ---------------------------------------------------------------- runtime: bundles and smoke tests
if (!staticOnly) {
  await runtimeChecks();
}

console.log(`${report.summary()} in ${((Date.now() - started) / 1000).toFixed(0)}s`);
process.exit(report.failed > 0 ? 1 : 0);

async function runtimeChecks() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const natsUrl = process.env.TEST_NATS_URL;
  const haveServers = await report.check('runtime servers', () => {
    assert(
      adminUrl && natsUrl,
      'TEST_DATABASE_URL and TEST_NATS_URL must be set (a PostgreSQL superuser URL and a NATS URL), or pass --static-only',
    );
    return `PostgreSQL ${new URL(adminUrl).host}, NATS ${natsUrl}`;
  });
  const base = rendered.get('base');
  if (!haveServers) return;
  if (!base) {
    await report.check('runtime manifests', () => {
      throw new CheckFailure('the base kustomization did not render: the smoke tests take their env from it');
    });
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'tessera-infra-check-'));
  // The bundles run as the image's uid: it must reach them, the JWKS file and the volumes.
  chmodSync(work, 0o755);
  const toolEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CI: 'true',
    TURBO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    npm_config_update_notifier: 'false',
  };
  const contextDir = join(work, 'context');
  const binDir = join(work, 'bin');
  let oidc;
  const prepared = await report.check('image build context', async () => {
    const files = makeBuildContext(contextDir);
    const versions = await makeToolShims(binDir, toolEnv);
    oidc = await makeOidc(work);
    return `${files} files after .dockerignore; pnpm ${versions.pnpm}, turbo ${versions.turbo}`;
  });
  const configMaps = new Map(base.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o]));
  const provided = providedSecretsOf('prod');
  try {
    for (const service of services) {
      if (!prepared) break;
      const main = `services/${service}/src/main.ts`;
      const dist = `services/${service}/dist/main.js`;
      if (!existsSync(join(REPO_ROOT, main)) || !existsSync(join(REPO_ROOT, dist))) {
        report.skip(
          `image ${service}`,
          `${existsSync(join(REPO_ROOT, main)) ? dist : main} does not exist yet: the service is not built, so it is not checked`,
        );
        continue;
      }
      await smokeService(service, {
        work,
        contextDir,
        binDir,
        toolEnv,
        oidc,
        adminUrl,
        natsUrl,
        configMaps,
        provided,
        base,
      });
    }
  } finally {
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

async function smokeService(
  service,
  { work, contextDir, binDir, toolEnv, oidc, adminUrl, natsUrl, configMaps, provided, base },
) {
  const find = (kind, name) => base.find((o) => o.kind === kind && o.metadata.name === name);
  let image;
  const built = await report.check(`image ${service}`, async () => {
    image = await buildLikeDockerfile({
      dockerfileText: readFileSync(dockerfilePath(), 'utf8'),
      buildArgs: buildArgsOf(service),
      contextDir,
      workDir: join(work, service),
      binDir,
      env: toolEnv,
    });
    const has = (path) => existsSync(join(image.appDir, path));
    for (const path of [
      'package.json',
      'dist/main.js',
      ...(hasDatabase(service)
        ? ['dist/migrate.js', 'drizzle/meta/_journal.json']
        : ['public/console.css', 'dist/browser/page.js', 'node_modules/chart.js/dist/chart.umd.min.js']),
      'node_modules/@tessera/service-kit/dist/index.js',
      'node_modules/@tessera/contracts/dist/index.js',
    ]) {
      assert(has(path), `the image would lack ${path}`);
    }
    for (const devOnly of ['typescript', 'drizzle-kit', '@types/node'])
      assert(!has(`node_modules/${devOnly}`), `the image would contain the devDependency ${devOnly}`);
    // The package's "files" decide what the bundle holds: the build output, not the sources.
    for (const sourceOnly of ['src', 'test', 'tsconfig.json'])
      assert(!has(sourceOnly), `the image would contain ${sourceOnly} (package.json "files" lists what ships)`);
    return `bundle ${megabytes(image.appDir)} MB (turbo prune, pnpm install --frozen-lockfile, build, pnpm deploy --prod --legacy)`;
  });
  if (!built) return;
  // From here on the bundle runs as the image runs it: as the Dockerfile's USER, from a copy
  // of /app nobody may write, with the pod's volumes (an emptyDir /tmp) the only writable place.
  const sealed = await report.check(`bundle read-only ${service}`, async () => {
    image = sealBundle(image, join(work, service, 'app'));
    const probe = await runInImage(
      image,
      [
        'node',
        '-e',
        "try { require('node:fs').writeFileSync('probe', 'x'); process.exit(3) } catch (error) { process.exit(error.code === 'EACCES' || error.code === 'EROFS' ? 0 : 4) }",
      ],
      {},
      15_000,
    );
    assert(
      probe.code === 0,
      `a write into the bundle ${probe.code === 3 ? 'succeeded' : `failed oddly (${probe.stderr.trim()})`}: it must be read-only for the service's user`,
    );
    return image.runAs
      ? `runs as uid ${image.runAs.uid}:${image.runAs.gid} (setpriv, the Dockerfile's USER); a write into the bundle is refused`
      : `runs as uid ${process.getuid?.()} (not root: cannot switch to the Dockerfile's USER ${image.user}); a write into the bundle is refused`;
  });
  if (!sealed) return;

  const database = `infra_check_${service.replace(/-/g, '_')}`;
  const secretKeys = provided.get(`${service}-secrets`) ?? [];
  let secrets;
  const migrated = await report.check(`migrate ${service}`, async () => {
    // The console has no database: its Secret holds only generated values, and nothing migrates.
    const url = hasDatabase(service) ? await createDatabase(adminUrl, database) : undefined;
    const generated = { ...(url ? { DATABASE_URL: url } : {}), ...randomSecrets() };
    const unknownKeys = secretKeys.filter((key) => !(key in generated));
    assert(
      unknownKeys.length === 0,
      `secret.example.yaml lists ${unknownKeys.join(', ')} for ${service}-secrets; the check cannot make such values`,
    );
    const extraDir = join(work, service, 'extra-secrets');
    mkdirSync(extraDir, { recursive: true });
    if (image.runAs) chownSync(extraDir, image.runAs.uid, image.runAs.gid);
    secrets = {
      [`${service}-secrets`]: Object.fromEntries(secretKeys.map((key) => [key, generated[key]])),
      ...(await EXTRA_SECRETS[service]?.({ image, dir: extraDir })),
    };
    if (!hasDatabase(service)) return 'no database: no migrate init container, nothing to migrate';
    // As the pod does: its init container first, with that container's env, before the server.
    const deployment = find('Deployment', service);
    const container = deployment && migrateContainerOf(deployment);
    assert(container, `Deployment ${service} has no \`migrate\` init container in the base`);
    const env = mountVolumes({
      podSpec: deployment.spec.template.spec,
      container,
      secrets,
      env: containerEnv({ imageEnv: image.env, container, configMaps, secrets }),
      root: join(work, service, 'migrate-volumes'),
      image,
    });
    const command = [...(container.command ?? []), ...(container.args ?? image.cmd)];
    for (const attempt of ['first', 'again']) {
      const result = await runInImage(image, command, env, 120_000);
      assert(
        result.code === 0,
        `${command.join(' ')} (${attempt}) exited ${result.code}\n${(result.stdout + result.stderr)
          .trim()
          .split('\n')
          .slice(-15)
          .map((l) => `    | ${l}`)
          .join('\n')}`,
      );
    }
    return `initContainer \`${command.join(' ')}\` with its env: exit 0, and 0 again (a second pod finds nothing to do)`;
  });
  if (!migrated) return dropDatabase(adminUrl, database).catch(() => {});

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  const deployment = find('Deployment', service);
  let env;
  let handle;
  try {
    const ready = await report.check(`start ${service}`, async () => {
      const container = deployment.spec.template.spec.containers[0];
      env = containerEnv({ imageEnv: image.env, container, configMaps, secrets });
      env = mountVolumes({
        podSpec: deployment.spec.template.spec,
        container,
        secrets,
        env,
        root: join(work, service, 'volumes'),
        image,
      });
      // Only what differs between a cluster and this machine: addresses and the OIDC keys.
      Object.assign(env, { PORT: String(port), HOST: '127.0.0.1' });
      if ('METRICS_PORT' in env) Object.assign(env, { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
      if ('PUBLIC_BASE_URL' in env) env.PUBLIC_BASE_URL = baseUrl;
      // The test server is plain and anonymous: local only, as the service must be told.
      if ('NATS_URL' in env) Object.assign(env, { NATS_URL: natsUrl, NATS_ALLOW_INSECURE: 'true' });
      if ('OIDC_ISSUER' in env) {
        Object.assign(env, { OIDC_ISSUER: OIDC.issuer, OIDC_AUDIENCE: OIDC.audience, OIDC_JWKS_FILE: oidc.file });
        delete env.OIDC_JWKS_URI;
      }
      assert(
        env.NODE_ENV === 'production' && (env.MIGRATE_ON_START === 'false' || !hasDatabase(service)),
        'the Deployment must run with NODE_ENV=production and MIGRATE_ON_START=false',
      );
      handle = startInImage(image, env);
      const { ms, body } = await waitReady(baseUrl, handle);
      return `\`${image.cmd.join(' ')}\` NODE_ENV=production${image.runAs ? ` as uid ${image.runAs.uid}` : ''}, read-only bundle, writable /tmp only: /health/ready 200 after ${(ms / 1000).toFixed(1)}s ${body}`;
    });
    if (!ready) return;
    await report.check(`healthcheck ${service}`, async () => {
      const result = await runInImage(image, image.healthcheck, env, 15_000);
      assert(result.code === 0, `the Dockerfile's HEALTHCHECK command exited ${result.code}: ${result.stderr.trim()}`);
      const live = await fetch(`${baseUrl}/health`);
      assert(live.status === 200, `GET /health: ${live.status}`);
      return "the Dockerfile's HEALTHCHECK command exits 0; GET /health 200";
    });
    await report.check(`http ${service}`, () => SMOKE[service]({ baseUrl, env, oidc }));
    if (existsSync(join(REPO_ROOT, 'packages', 'service-kit', 'src', 'metrics'))) {
      await report.check(`metrics ${service}`, async () => {
        const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch((error) => {
          throw new CheckFailure(`GET /metrics on METRICS_PORT ${metricsPort}: ${error.cause?.code ?? error.message}`);
        });
        assert(response.status === 200, `GET /metrics on METRICS_PORT: ${response.status}`);
        const missing = missingFromScrape(service, await response.text(), catalogue);
        return problemsOrOk(
          missing,
          'every series infra/observability/metrics-catalogue.json lists for it is declared, with its type',
        );
      });
    } else report.skip(`metrics ${service}`, 'packages/service-kit/src/metrics does not exist yet');
    await report.check(`shutdown ${service}`, async () => {
      const current = handle;
      handle = undefined;
      await stop(current, Number(env.SHUTDOWN_GRACE_MS ?? 10000));
      return 'SIGTERM -> exit 0';
    });
  } finally {
    if (handle) {
      handle.child.kill('SIGKILL');
      await handle.exited;
    }
    await dropDatabase(adminUrl, database).catch(() => {});
  }
}

function clusterObjects() {
  const dir = join(K8S_ROOT, 'cluster');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) => parseYamlDocuments(readFileSync(join(dir, name), 'utf8'), join(dir, name)));
}

function megabytes(dir) {
  let bytes = 0;
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) bytes += statSync(child).size;
    }
  };
  walk(dir);
  return (bytes / 1e6).toFixed(0);
}
