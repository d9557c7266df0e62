#!/usr/bin/env node
// Sums the self time of V8 CPU profiles (`node --cpu-prof`, or BENCH_PROFILE_DIR of the
// benchmarks) by package, by file and by function, to see where a hot path spends its
// time before optimising it.
//
// Usage: node bench/lib/profile-summary.mjs [--top N] [--files] [--functions] [--from S] [--to S] <profile.cpuprofile | dir>...
//   a directory stands for every .cpuprofile in it; several profiles are summed.
//   --top N       rows per table (default 20)
//   --from S, --to S   only samples taken S seconds or more (less) after the profile started,
//                 e.g. to leave out a server's start-up and a benchmark's seeding
//   --files       also print the top files
//   --functions   also print the top functions (name, file:line)
//
// A package is the npm package a file belongs to (the last `node_modules/` segment of
// its path, scoped names kept whole), else the `name` of the nearest package.json (the
// workspace's own packages), else its folder. Node's own modules are `node:<module>`
// (`node:internal/streams`, `node:_http_server`), and V8's samples without a script are
// `(garbage collector)`, `(program)`, `(idle)` or `(native)`. Percentages are of the
// busy time: everything but `(idle)`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Reads a `.cpuprofile` and returns the self time in microseconds of each node id, plus the nodes. */
export function readSelfTimes(path, { fromSeconds = 0, toSeconds = Infinity } = {}) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const selfMicros = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  let at = 0;
  // timeDeltas[i] is the time since the previous sample: the time up to the next sample is
  // what sample i stands for, so each sample takes the delta that follows it.
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < fromSeconds * 1e6 || at >= toSeconds * 1e6) continue;
    const delta = timeDeltas[i + 1] ?? 0;
    selfMicros.set(samples[i], (selfMicros.get(samples[i]) ?? 0) + Math.max(0, delta));
  }
  return { nodes: profile.nodes, selfMicros };
}

const packageNameByDir = new Map();

/** `name` of the nearest package.json above `file`, or undefined when there is none. */
function findPackageName(file) {
  let dir = dirname(file);
  const visited = [];
  while (true) {
    if (packageNameByDir.has(dir)) {
      const name = packageNameByDir.get(dir);
      for (const seen of visited) packageNameByDir.set(seen, name);
      return name;
    }
    visited.push(dir);
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      let name;
      try {
        name = JSON.parse(readFileSync(manifest, 'utf8')).name;
      } catch {
        name = undefined;
      }
      // A package.json without a name (e.g. `{"type":"module"}` in dist/) belongs to its parent.
      if (name) {
        for (const seen of visited) packageNameByDir.set(seen, name);
        return name;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      for (const seen of visited) packageNameByDir.set(seen, undefined);
      return undefined;
    }
    dir = parent;
  }
}

/** The package and file a profile node's script belongs to. */
export function classify(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) {
    if (['(garbage collector)', '(program)', '(idle)', '(root)'].includes(functionName))
      return { pkg: functionName, file: functionName };
    return { pkg: '(native)', file: '(native)' };
  }
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    const module = parts[0] === 'internal' ? parts.slice(0, 2).join('/') : parts[0];
    return { pkg: `node:${module}`, file: url };
  }
  let file = url;
  if (url.startsWith('file://')) {
    try {
      file = fileURLToPath(url);
    } catch {
      file = url;
    }
  }
  const marker = '/node_modules/';
  const at = file.lastIndexOf(marker);
  if (at >= 0) {
    const rest = file.slice(at + marker.length).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    return { pkg, file: `${pkg}/${rest.slice(pkg.includes('/') ? 2 : 1).join('/')}` };
  }
  const pkg = file.startsWith('/') ? findPackageName(file) : undefined;
  const shown = relative(process.cwd(), file) || file;
  return { pkg: pkg ?? dirname(shown), file: shown };
}

/** Self time summed by package, file and function over the given profiles. */
export function summarizeProfiles(paths, window = {}) {
  const byPackage = new Map();
  const byFile = new Map();
  const byFunction = new Map();
  let total = 0;
  let idle = 0;
  const add = (map, key, micros) => map.set(key, (map.get(key) ?? 0) + micros);
  for (const path of paths) {
    const { nodes, selfMicros } = readSelfTimes(path, window);
    for (const node of nodes) {
      const micros = selfMicros.get(node.id) ?? 0;
      if (micros === 0) continue;
      total += micros;
      if (node.callFrame.functionName === '(idle)' && !node.callFrame.url) {
        idle += micros;
        continue;
      }
      const { pkg, file } = classify(node.callFrame);
      add(byPackage, pkg, micros);
      add(byFile, file, micros);
      const name = node.callFrame.functionName || '(anonymous)';
      add(
        byFunction,
        node.callFrame.url ? `${name}  ${file}:${node.callFrame.lineNumber + 1}` : `${name}  ${file}`,
        micros,
      );
    }
  }
  return { totalMicros: total, idleMicros: idle, busyMicros: total - idle, byPackage, byFile, byFunction };
}

/** Expands directories to the .cpuprofile files they hold. */
export function expandProfilePaths(args) {
  return args.flatMap((arg) =>
    statSync(arg).isDirectory()
      ? readdirSync(arg)
          .filter((name) => name.endsWith('.cpuprofile'))
          .sort()
          .map((name) => join(arg, name))
      : [arg],
  );
}

function printTable(title, map, busy, top) {
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const width = Math.min(90, Math.max(title.length, ...rows.map(([key]) => key.length)));
  console.log(`\n${title.padEnd(width)}   self ms   % busy`);
  for (const [key, micros] of rows) {
    const shown = key.length > width ? `…${key.slice(key.length - width + 1)}` : key;
    console.log(
      `${shown.padEnd(width)}  ${(micros / 1000).toFixed(0).padStart(8)}   ${((100 * micros) / busy).toFixed(1).padStart(5)} %`,
    );
  }
}

function main(argv) {
  let top = 20;
  let files = false;
  let functions = false;
  const window = {};
  const paths = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--top') top = Number(argv[++i]);
    else if (arg === '--files') files = true;
    else if (arg === '--functions') functions = true;
    else if (arg === '--from') window.fromSeconds = Number(argv[++i]);
    else if (arg === '--to') window.toSeconds = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') paths.length = 0;
    else paths.push(arg);
  }
  const profiles = expandProfilePaths(paths);
  if (profiles.length === 0) {
    console.error(
      'usage: node bench/lib/profile-summary.mjs [--top N] [--files] [--functions] [--from S] [--to S] <profile.cpuprofile | dir>...',
    );
    process.exit(2);
  }
  const summary = summarizeProfiles(profiles, window);
  const ms = (micros) => (micros / 1000).toFixed(0);
  console.log(
    `${profiles.length} profile(s): ${ms(summary.totalMicros)} ms sampled, ${ms(summary.busyMicros)} ms busy (${((100 * summary.busyMicros) / Math.max(1, summary.totalMicros)).toFixed(0)} %), idle excluded below`,
  );
  printTable('package', summary.byPackage, summary.busyMicros, top);
  if (files) printTable('file', summary.byFile, summary.busyMicros, top);
  if (functions) printTable('function', summary.byFunction, summary.busyMicros, top);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
