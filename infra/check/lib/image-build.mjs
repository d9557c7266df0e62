// Builds a service's production bundle without a container engine by *interpreting its
// Dockerfile*: the build context is made with .dockerignore, every stage gets its own
// directory as its filesystem root, and FROM / WORKDIR / COPY / RUN are carried out in
// order. RUN commands run on this machine with their absolute paths moved under the
// stage's root; the tools stage's `npm install --global pnpm@X turbo@Y` is replaced by
// shims of exactly those versions, and the runtime stage's apt-get (tini) is skipped.
// So the bundle started by the smoke test is the one the image would contain.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
  copyFileSync,
} from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { assert, CheckFailure, REPO_ROOT, run, runOrFail } from './util.mjs';
import { parseDockerfile, rootToolVersions, stageEnv } from './dockerfile.mjs';

/** Docker's .dockerignore: `**`, `*`, `?`, leading `!` for exceptions; a matched directory drops its contents. */
export function loadDockerignore(root = REPO_ROOT) {
  const path = join(root, '.dockerignore');
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
  const rules = lines
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = posix.normalize((negate ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, '');
      return { negate, regex: globToRegex(pattern) };
    });
  const matches = (rel) => {
    let excluded = false;
    for (const rule of rules) {
      const parts = rel.split('/');
      const hit = parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join('/')));
      if (hit) excluded = !rule.negate;
    }
    return excluded;
  };
  return { rules, excluded: matches, hasExceptions: rules.some((rule) => rule.negate) };
}

function globToRegex(pattern) {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        out += '(?:.*/)?';
      } else out += '.*';
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Copies the repository into `dest` as the Docker build context: .dockerignore applied, symlinks kept. */
export function makeBuildContext(dest, root = REPO_ROOT) {
  const ignore = loadDockerignore(root);
  let files = 0;
  const walk = (rel) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (ignore.excluded(childRel) && !(entry.isDirectory() && ignore.hasExceptions)) continue;
      const from = join(root, childRel);
      const to = join(dest, childRel);
      if (entry.isDirectory()) walk(childRel);
      else {
        mkdirSync(dirname(to), { recursive: true });
        if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
        else copyFileSync(from, to);
        files++;
      }
    }
  };
  mkdirSync(dest, { recursive: true });
  walk('');
  return files;
}

/** Writes `pnpm` and `turbo` shims of the pinned versions into `binDir`. */
export async function makeToolShims(binDir, env) {
  const versions = rootToolVersions();
  mkdirSync(binDir, { recursive: true });
  await runOrFail('npx', ['-y', `pnpm@${versions.pnpm}`, '--version'], { env, cwd: binDir });
  // npx keeps the package in its cache: call it directly (npx costs a second per call).
  const cache = (await runOrFail('npm', ['config', 'get', 'cache'], { env, cwd: binDir })).stdout.trim();
  const npxDir = join(cache, '_npx');
  const cached = existsSync(npxDir)
    ? readdirSync(npxDir)
        .map((hash) => join(npxDir, hash, 'node_modules', 'pnpm'))
        .find(
          (dir) =>
            existsSync(join(dir, 'package.json')) &&
            JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === versions.pnpm,
        )
    : undefined;
  const pnpm = cached
    ? `exec "${process.execPath}" "${join(cached, 'bin', 'pnpm.cjs')}" "$@"`
    : `exec npx -y pnpm@${versions.pnpm} "$@"`;
  writeFileSync(join(binDir, 'pnpm'), `#!/bin/sh\n${pnpm}\n`);
  const turboBin = join(REPO_ROOT, 'node_modules', '.bin', 'turbo');
  assert(existsSync(turboBin), 'node_modules/.bin/turbo is missing: install the workspace first');
  writeFileSync(join(binDir, 'turbo'), `#!/bin/sh\nexec "${turboBin}" "$@"\n`);
  for (const tool of ['pnpm', 'turbo']) chmodSync(join(binDir, tool), 0o755);
  const got = {
    pnpm: (await runOrFail(join(binDir, 'pnpm'), ['--version'], { env })).stdout.trim(),
    turbo: (await runOrFail(join(binDir, 'turbo'), ['--version'], { env })).stdout.trim().split('\n').pop(),
  };
  assert(got.pnpm === versions.pnpm, `pnpm shim is ${got.pnpm}, expected ${versions.pnpm}`);
  assert(got.turbo === versions.turbo, `turbo shim is ${got.turbo}, expected ${versions.turbo}`);
  return versions;
}

/**
 * Carries out the Dockerfile's stages under `workDir/stages/<stage>/`, with `buildArgs` as
 * `docker build --build-arg` gives them. Returns the runtime stage: its root, WORKDIR, ENV,
 * CMD, ENTRYPOINT and HEALTHCHECK, and a log of the steps.
 */
export async function buildLikeDockerfile({
  dockerfileText,
  buildArgs = {},
  contextDir,
  workDir,
  binDir,
  env,
  log = () => {},
}) {
  const { stages } = parseDockerfile(dockerfileText, buildArgs);
  const roots = new Map();
  const shimVersions = rootToolVersions();
  const stepEnv = { ...env, PATH: `${binDir}:${env.PATH}` };
  let final;
  for (const stage of stages) {
    const root = join(workDir, 'stages', stage.name);
    mkdirSync(root, { recursive: true });
    if (roots.has(stage.base)) cpSync(roots.get(stage.base), root, { recursive: true, verbatimSymlinks: true });
    roots.set(stage.name, root);
    let cwd = '/';
    const inStage = (path) => join(root, posix.resolve(cwd, path));
    for (const instruction of stage.instructions) {
      const where = `${stage.name}:${instruction.line} ${instruction.keyword}`;
      switch (instruction.keyword) {
        case 'WORKDIR':
          cwd = posix.resolve(cwd, instruction.content);
          mkdirSync(inStage('.'), { recursive: true });
          break;
        case 'COPY': {
          const words = instruction.content.split(/\s+/);
          const dest = words.pop();
          const fromRoot = instruction.flags.from ? roots.get(instruction.flags.from) : contextDir;
          assert(fromRoot, `${where}: unknown stage ${instruction.flags.from}`);
          for (const source of words) {
            const from = join(fromRoot, instruction.flags.from ? source : posix.normalize(source));
            assert(
              existsSync(from),
              `${where}: ${source} does not exist ${instruction.flags.from ? `in stage ${instruction.flags.from}` : 'in the build context (.dockerignore?)'}`,
            );
            const isDir = lstatSync(from).isDirectory();
            const to = isDir || dest.endsWith('/') ? inStage(dest) : inStage(dest);
            if (isDir) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
            else {
              const target = dest.endsWith('/') ? join(to, posix.basename(source)) : to;
              mkdirSync(dirname(target), { recursive: true });
              cpSync(from, target, { verbatimSymlinks: true });
            }
          }
          log(`${where} ${instruction.content}`);
          break;
        }
        case 'RUN': {
          const command = instruction.content.trim();
          if (/^npm install --global /.test(command)) {
            // The tools stage: the shims stand in for exactly these versions.
            for (const [, name, version] of command.matchAll(/\b(pnpm|turbo)@(\S+)/g)) {
              assert(
                shimVersions[name] === version,
                `${where}: installs ${name}@${version}, but the workspace pins ${name}@${shimVersions[name]}`,
              );
            }
            log(`${where} (shims: pnpm@${shimVersions.pnpm}, turbo@${shimVersions.turbo})`);
            break;
          }
          if (/^apt-get /.test(command)) {
            log(`${where} (system packages: skipped)`);
            break;
          }
          const mapped = command.replace(
            /(^|\s)(\/[A-Za-z][^\s]*)/g,
            (_, space, path) => `${space}${join(root, path)}`,
          );
          log(`${where} ${command}`);
          const result = await run('sh', ['-c', mapped], { cwd: inStage('.'), env: stepEnv, timeoutMs: 300_000 });
          if (result.code !== 0)
            throw new CheckFailure(`${where} \`${command}\` exited ${result.code}\n${tailOf(result)}`);
          break;
        }
        case 'ENV':
        case 'USER':
        case 'EXPOSE':
        case 'HEALTHCHECK':
        case 'ENTRYPOINT':
        case 'CMD':
        case 'ARG':
        case 'LABEL':
          break;
        default:
          throw new CheckFailure(`${where}: the check does not know how to carry out ${instruction.keyword}`);
      }
    }
    final = { name: stage.name, root, workdir: cwd, stage };
  }
  const get = (keyword) => final.stage.instructions.filter((i) => i.keyword === keyword).at(-1);
  return {
    appDir: join(final.root, final.workdir),
    env: stageEnv(final.stage),
    cmd: JSON.parse(get('CMD').content),
    entrypoint: JSON.parse(get('ENTRYPOINT')?.content ?? '[]'),
    healthcheck: JSON.parse(get('HEALTHCHECK').content.replace(/^CMD\s+/, '')),
    user: get('USER')?.content,
  };
}

function tailOf(result) {
  return (result.stdout + result.stderr)
    .trimEnd()
    .split('\n')
    .slice(-25)
    .map((l) => `    | ${l}`)
    .join('\n');
}

export function relativeToRepo(path) {
  return relative(REPO_ROOT, path);
}
