// docker-compose.yml: validated against the Compose Specification's JSON schema (the
// copy dclint ships, schemas/compose.schema.json), linted with dclint, and held to the
// dependency order of issue 6, item 3.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { collectProblems, INFRA_ROOT, REPO_ROOT, run, hasDatabase } from './util.mjs';

const require = createRequire(import.meta.url);
export const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');

function dclintDir() {
  return join(dirname(require.resolve('dclint')), '..');
}

/** Compose's own interpolation, enough for this file: `${VAR:-default}`, `${VAR-default}`, `${VAR}`. */
export function interpolate(value, env = {}) {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g, (_, name, op, fallback) => {
      const set = env[name];
      if (op === ':-') return set ? set : fallback;
      if (op === '-') return set ?? fallback;
      return set ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

export function loadCompose() {
  const text = readFileSync(COMPOSE_FILE, 'utf8');
  return { text, raw: parse(text, { merge: true }) };
}

/** Schema problems of the file as written and after interpolation with its defaults. */
export function validateComposeSchema(raw) {
  const schemaPath = join(dclintDir(), 'schemas', 'compose.schema.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  delete schema.$schema; // draft-07, Ajv's default dialect
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  const problems = [];
  for (const [label, document] of [
    ['as written', raw],
    ['interpolated', interpolate(raw)],
  ]) {
    if (!validate(document))
      problems.push(
        ...validate.errors.map(
          (e) =>
            `${label}: ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`,
        ),
      );
  }
  const { version } = JSON.parse(readFileSync(join(dclintDir(), 'package.json'), 'utf8'));
  return { problems, schemaPath: `dclint@${version}/schemas/compose.schema.json`, title: schema.title };
}

export async function runDclint() {
  const bin = join(dclintDir(), 'bin', 'dclint.cjs');
  const result = await run(
    process.execPath,
    [bin, '-c', join(INFRA_ROOT, 'check', 'dclint.json'), '--max-warnings', '0', '--no-color', COMPOSE_FILE],
    { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeoutMs: 60_000 },
  );
  return result.code === 0 ? [] : [(result.stdout + result.stderr).trim()];
}

/** Dependency order, healthchecks, JetStream, migrate-and-exit runs, ports and images. */
export function composeRules(raw, ports) {
  const { problems, want } = collectProblems();
  const compose = interpolate(raw);
  const services = compose.services ?? {};
  const dependsOn = (name) => services[name]?.depends_on ?? {};
  want(services.postgres?.healthcheck, 'postgres: healthcheck missing');
  want(services.nats?.healthcheck, 'nats: healthcheck missing');
  want(
    /--jetstream|(^|\s)-js(\s|$)/.test((services.nats?.command ?? []).join(' ')),
    'nats: JetStream is not switched on (--jetstream)',
  );
  // Issue 17, item 3: images this repository does not build are pinned by digest — those
  // `docker compose up` starts; opt-in profiles (the observability tools) are development aids.
  for (const [name, service] of Object.entries(services)) {
    if (service.build || !service.image || service.profiles?.length > 0) continue;
    const ours = Object.values(services).some((other) => other.build && other.image === service.image);
    if (!ours)
      want(
        /@sha256:[0-9a-f]{64}$/.test(service.image),
        `${name}: image ${service.image} must be pinned by digest (name:tag@sha256:<64 hex>)`,
      );
  }
  for (const [service, port] of Object.entries(ports)) {
    const main = services[service];
    if (!want(main, `${service}: missing`)) continue;
    // The one Dockerfile (issue 23, item 3), told which service to build and its port.
    want(
      main.build?.dockerfile === 'Dockerfile' &&
        (main.build.context ?? '.') === '.' &&
        existsSync(join(REPO_ROOT, main.build.dockerfile)),
      `${service}: build must use the root Dockerfile with the repository root as context`,
    );
    want(
      main.build?.args?.SERVICE === service && String(main.build?.args?.PORT) === String(port),
      `${service}: build args must be SERVICE=${service} and PORT=${port} (its DEFAULT_PORT)`,
    );
    common(service, main, port);
    if (!hasDatabase(service)) {
      // The console: no database; it starts once the services it calls are healthy.
      want(!services[`${service}-migrate`], `${service}: has no database, so no ${service}-migrate`);
      want(!main.environment?.DATABASE_URL, `${service}: has no database (DATABASE_URL set)`);
      for (const peer of Object.keys(ports).filter(hasDatabase))
        want(
          dependsOn(service)[peer]?.condition === 'service_healthy',
          `${service}: must wait for ${peer} to be healthy`,
        );
      continue;
    }
    const migrate = services[`${service}-migrate`];
    if (!want(migrate, `${service}-migrate: missing`)) continue;
    want(
      !migrate.build || JSON.stringify(migrate.build) === JSON.stringify(main.build),
      `${service}-migrate: must build the service's image exactly as ${service} does`,
    );
    want(main.image === migrate.image, `${service}-migrate must run the service's image`);
    want(
      JSON.stringify(migrate.command) === JSON.stringify(['node', 'dist/migrate.js']),
      `${service}-migrate: command must be ["node","dist/migrate.js"]`,
    );
    want(migrate.restart === 'no', `${service}-migrate: restart must be "no" (it exits)`);
    want(
      dependsOn(`${service}-migrate`).postgres?.condition === 'service_healthy',
      `${service}-migrate: must wait for postgres to be healthy`,
    );
    want(
      dependsOn(service)[`${service}-migrate`]?.condition === 'service_completed_successfully',
      `${service}: must wait for ${service}-migrate to complete successfully`,
    );
    want(
      dependsOn(service).postgres?.condition === 'service_healthy',
      `${service}: must wait for postgres to be healthy`,
    );
    if (service !== 'status-list') {
      want(dependsOn(service).nats?.condition === 'service_healthy', `${service}: must wait for nats to be healthy`);
      want(main.environment?.NATS_URL, `${service}: NATS_URL missing`);
    }
    want(main.environment?.MIGRATE_ON_START === 'false', `${service}: MIGRATE_ON_START=false expected`);
  }
  return problems;

  /** What every deployable's compose service has: health, port, production mode. */
  function common(service, main, port) {
    want(
      main.healthcheck?.test?.join(' ').includes('/health'),
      `${service}: healthcheck must call /health or /health/ready`,
    );
    want(String(main.environment?.PORT) === String(port), `${service}: PORT must be ${port}`);
    want(main.environment?.NODE_ENV === 'production', `${service}: NODE_ENV=production expected`);
    want(
      (main.ports ?? []).some((p) => String(p).endsWith(`:${port}`)),
      `${service}: port ${port} not published`,
    );
  }
}
