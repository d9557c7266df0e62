// Dockerfile parsing (dockerfile-ast), lint (dockerfile-utils) and the house rules the
// one parameterised Dockerfile must follow for every service it builds (SERVICE, PORT).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { validate, ValidationSeverity } from 'dockerfile-utils';
import { assert, collectProblems, REPO_ROOT } from './util.mjs';

/** The one Dockerfile, at the repository root: every service's image, chosen by its build arguments. */
export const DOCKERFILE = 'Dockerfile';

export function dockerfilePath() {
  return join(REPO_ROOT, DOCKERFILE);
}

/** The build arguments of `service`'s image: its folder and its DEFAULT_PORT. */
export function buildArgsOf(service) {
  return { SERVICE: service, PORT: String(defaultPortOf(service)) };
}

/** `$NAME` and `${NAME}` of the arguments in scope replaced by their values (Docker's substitution). */
function substitute(text, scope) {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced, bare) => {
    const name = braced ?? bare;
    return Object.hasOwn(scope, name) && scope[name] !== undefined ? scope[name] : whole;
  });
}

/**
 * Parses a Dockerfile into stages: `{ name, base, instructions: [{ keyword, args, content, flags }] }`.
 * `args` are the JSON array for exec form, else whitespace-split words; `flags` are `--name=value`.
 * `buildArgs` (`--build-arg`) are substituted as Docker does: a global ARG in FROM lines, and
 * in a stage's instructions once the stage declares it (`ARG NAME`); anything else is left as
 * written (a RUN's shell then sees an unset variable, as in Docker).
 */
export function parseDockerfile(text, buildArgs = {}) {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs = {};
  const stages = [];
  let scope = {};
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const flags = Object.fromEntries(
      (typeof instruction.getFlags === 'function' ? instruction.getFlags() : []).map((flag) => [
        flag.getName(),
        flag.getValue(),
      ]),
    );
    const rawContent = instruction.getArgumentsContent() ?? '';
    const content = keyword === 'ARG' ? rawContent : substitute(rawContent, scope);
    const entry = {
      keyword,
      content,
      flags,
      words: instruction.getArguments().map((argument) => substitute(argument.getValue(), scope)),
      line: instruction.getRange().start.line + 1,
    };
    if (keyword === 'ARG') {
      const [name, value] = rawContent.split('=');
      const key = name.trim();
      if (stages.length === 0) {
        globalArgs[key] = buildArgs[key] ?? value?.trim();
        continue;
      }
      scope[key] = buildArgs[key] ?? value?.trim() ?? globalArgs[key];
    }
    if (keyword === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((argument) => argument.getValue());
      const base = image.replace(/\$\{?(\w+)\}?/g, (_, arg) => globalArgs[arg] ?? '');
      stages.push({ name: as?.toUpperCase() === 'AS' ? name : String(stages.length), base, instructions: [] });
      scope = {};
      continue;
    }
    stages.at(-1)?.instructions.push(entry);
  }
  return { stages, globalArgs };
}

/** The exec-form array of CMD, ENTRYPOINT or `HEALTHCHECK CMD [...]`. */
export function execForm(content) {
  const json = content.replace(/^CMD\s+/, '');
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `ENV A=1 B=2` (also the legacy `ENV A 1`) of one stage, in order. */
export function stageEnv(stage) {
  const env = {};
  for (const instruction of stage.instructions.filter((i) => i.keyword === 'ENV')) {
    if (!instruction.content.includes('=')) {
      const [name, ...rest] = instruction.content.split(/\s+/);
      env[name] = rest.join(' ');
      continue;
    }
    for (const word of instruction.words) {
      const index = word.indexOf('=');
      env[word.slice(0, index)] = word.slice(index + 1).replace(/^"(.*)"$/, '$1');
    }
  }
  return env;
}

/** dockerfile-utils' validator with every rule raised to a warning; any diagnostic fails. */
export function lintDockerfile(text) {
  const settings = Object.fromEntries(
    [
      'deprecatedMaintainer',
      'directiveCasing',
      'emptyContinuationLine',
      'instructionCasing',
      'instructionCmdMultiple',
      'instructionEntrypointMultiple',
      'instructionHealthcheckMultiple',
      'instructionJSONInSingleQuotes',
      'instructionWorkdirRelative',
    ].map((rule) => [rule, ValidationSeverity.WARNING]),
  );
  return validate(text, settings).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
}

/** The service's default port, read from its config schema. */
export function defaultPortOf(service) {
  const source = readFileSync(join(REPO_ROOT, 'services', service, 'src', 'config.ts'), 'utf8');
  const match = /DEFAULT_PORT\s*=\s*(\d+)/.exec(source);
  assert(match, `services/${service}/src/config.ts: no DEFAULT_PORT`);
  return Number(match[1]);
}

/** Node.js majors that are LTS and supported while this check is current (issue 17, item 3). */
export const SUPPORTED_NODE_MAJORS = ['22', '24'];

export function rootEngines() {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).engines?.node ?? '';
}

/** True when an engines range made of `^X...`, `>=X...` alternatives (joined by `||`) admits major `major`. */
export function enginesAllowMajor(range, major) {
  return range.split('||').some((alternative) => {
    const caret = /^\s*\^(\d+)/.exec(alternative);
    if (caret) return Number(caret[1]) === major;
    const atLeast = /^\s*>=\s*(\d+)/.exec(alternative);
    const below = /<\s*(\d+)/.exec(alternative);
    return Boolean(atLeast) && major >= Number(atLeast[1]) && (!below || major < Number(below[1]));
  });
}

export function rootToolVersions() {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  return { pnpm: pkg.packageManager.replace(/^pnpm@/, ''), turbo: pkg.devDependencies.turbo };
}

/**
 * The rules of the house for a service image (issue 6, item 3), on the Dockerfile as it
 * builds `service` (its build arguments substituted): multi-stage, turbo prune + pnpm
 * deploy --prod (--legacy), pinned tools, non-root numeric USER, tini, HEALTHCHECK on the
 * health route, the service's port, production env, migrations in the image. The service
 * comes from SERVICE and PORT build arguments without defaults (issue 23, item 3).
 */
export function houseRules(service, text) {
  const { problems, want } = collectProblems();
  const { stages, globalArgs } = parseDockerfile(text, buildArgsOf(service));
  const declared = parseDockerfile(text).globalArgs;
  for (const name of ['SERVICE', 'PORT']) {
    want(
      Object.hasOwn(declared, name) && declared[name] === undefined,
      `a global \`ARG ${name}\` without a default expected: an image must be built for a named service`,
    );
  }
  want(globalArgs.SERVICE === service, `SERVICE=${service} must reach the build`);
  const pkg = `@tessera/${service}`;
  const port = defaultPortOf(service);
  const versions = rootToolVersions();
  const runs = stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.content));
  want(stages.length >= 3, `multi-stage build expected (prune, build, runtime); found ${stages.length} stage(s)`);
  want(
    runs.some((r) => r.includes(`pnpm@${versions.pnpm}`)),
    `pnpm must be installed pinned as pnpm@${versions.pnpm} (root packageManager)`,
  );
  want(
    runs.some((r) => r.includes(`turbo@${versions.turbo}`)),
    `turbo must be installed pinned as turbo@${versions.turbo} (root devDependencies)`,
  );
  want(
    runs.some((r) => r.includes(`turbo prune ${pkg} --docker`)),
    `missing \`turbo prune ${pkg} --docker\``,
  );
  want(
    runs.some((r) => r.includes('DEFAULT_PORT') && r.includes(`services/${service}/src/config.ts`)),
    'the build must refuse a PORT that is not the DEFAULT_PORT of services/$SERVICE/src/config.ts',
  );
  want(
    runs.some((r) => r.includes('pnpm install --frozen-lockfile')),
    'missing `pnpm install --frozen-lockfile`',
  );
  want(
    runs.some((r) => r.includes(`--filter=${pkg}`) && r.includes('deploy --prod --legacy')),
    `missing \`pnpm --filter=${pkg} deploy --prod --legacy\``,
  );
  const runtime = stages.at(-1);
  const final = (keyword) => runtime.instructions.filter((i) => i.keyword === keyword);
  want(
    runtime.base === stages[0].base,
    `runtime stage should start from the same Node image as the build (${stages[0].base}), not ${runtime.base}`,
  );
  // Issue 17, item 3: a supported LTS, every base pinned by digest, no package manager at run time.
  const major = /^node:(\d+)[.-]/.exec(runtime.base)?.[1];
  want(
    SUPPORTED_NODE_MAJORS.includes(major),
    `runtime image should be a supported Node.js LTS (${SUPPORTED_NODE_MAJORS.join(' or ')}), got ${runtime.base}`,
  );
  const engines = rootEngines();
  want(
    major && enginesAllowMajor(engines, Number(major)),
    `root package.json engines.node (${engines}) must include the image's Node.js ${major}`,
  );
  want(
    engines.split('||').every((alternative) => /^\s*\^\d+/.test(alternative) || /<\s*\d+/.test(alternative)),
    `root package.json engines.node (${engines}) must name the tested majors (^X or >=X <Y), not an open range`,
  );
  for (const stage of stages.filter((s) => !stages.some((other) => other.name === s.base))) {
    want(
      /@sha256:[0-9a-f]{64}$/.test(stage.base),
      `stage ${stage.name}: base image ${stage.base} must be pinned by digest (name:tag@sha256:<64 hex>)`,
    );
  }
  const removed = runtime.instructions
    .filter((i) => i.keyword === 'RUN' && /\brm\b/.test(i.content))
    .map((i) => i.content)
    .join(' ');
  for (const tool of ['npm', 'npx', 'corepack']) {
    want(
      new RegExp(`/usr/local/bin/${tool}(\\s|$)`).test(removed),
      `runtime stage must remove ${tool} (rm /usr/local/bin/${tool}): no package manager at run time`,
    );
  }
  want(
    /\/usr\/local\/lib\/node_modules(\s|$)/.test(removed) || /\/usr\/local\/lib\/node_modules\/npm(\s|$)/.test(removed),
    'runtime stage must remove npm itself (/usr/local/lib/node_modules/npm), not only its links',
  );
  const user = final('USER').at(-1)?.content ?? '';
  want(/^[1-9]\d*(:\d+)?$/.test(user), `final USER must be a numeric non-root uid (got "${user || 'none'}")`);
  const entrypoint = execForm(final('ENTRYPOINT').at(-1)?.content ?? '');
  want(
    entrypoint && /(^|\/)(tini|dumb-init)$/.test(entrypoint[0]),
    'ENTRYPOINT must be tini or dumb-init in exec form',
  );
  if (entrypoint)
    want(
      runtime.instructions.some((i) => i.keyword === 'RUN' && i.content.includes(entrypoint[0].split('/').pop())),
      `${entrypoint[0]} is not installed in the runtime stage`,
    );
  const cmd = execForm(final('CMD').at(-1)?.content ?? '');
  want(JSON.stringify(cmd) === JSON.stringify(['node', 'dist/main.js']), 'CMD must be ["node", "dist/main.js"]');
  const healthcheck = final('HEALTHCHECK').at(-1);
  const healthArgs = healthcheck && execForm(healthcheck.content);
  want(
    healthArgs && /\/health(\/ready)?['"]/.test(healthArgs.join(' ')),
    'HEALTHCHECK CMD in exec form calling /health or /health/ready expected',
  );
  want(
    final('EXPOSE').some((i) => i.content === String(port)),
    `EXPOSE ${port} expected (DEFAULT_PORT in src/config.ts)`,
  );
  const env = stageEnv(runtime);
  want(env.NODE_ENV === 'production', 'ENV NODE_ENV=production expected in the runtime stage');
  want(env.PORT === String(port), `ENV PORT=${port} expected`);
  want(env.MIGRATE_ON_START === 'false', 'ENV MIGRATE_ON_START=false expected (the migrate init container migrates)');
  // The deployed bundle whole (its package.json "files" say what it holds), or its parts.
  const copies = final('COPY').map((i) => i.content);
  const wholeBundle = copies.some((c) => /^\/prod\/?$/.test(c.split(/\s+/)[0]));
  for (const needed of ['dist', 'drizzle', 'node_modules', 'package.json']) {
    want(
      wholeBundle || copies.some((c) => c.split(/\s+/)[0].endsWith(`/${needed}`)),
      `runtime stage must copy ${needed} from the deployed bundle`,
    );
  }
  return problems;
}
