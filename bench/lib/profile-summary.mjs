#!/usr/bin/env node
// Sums the self time of V8 CPU profiles (`node --cpu-prof`, or BENCH_PROFILE_DIR of the
// benchmarks) by package, by file and by function, to see where a hot path spends its
// time before optimising it.
//
// Usage: node bench/lib/profile-summary.mjs [--top N] [--groups] [--group TEXT] [--inclusive TEXT] [--files] [--functions] [--from S] [--to S] <profile.cpuprofile | dir>...
//   a directory stands for every .cpuprofile in it; several profiles are summed.
//   --top N       rows per table (default 20)
//   --from S, --to S   only samples taken S seconds or more (less) after the profile started,
//                 e.g. to leave out a server's start-up and a benchmark's seeding
//   --groups      also print the time by kind of work (database client, HTTP, crypto, …: the
//                 rows of bench/RESULTS.md's profile tables), with Node's internals and native
//                 code attributed to the package that called them (see `groupOf`)
//   --group TEXT  also print the top functions of the kinds of work whose name contains TEXT
//                 (e.g. `--group crypto`), Node internals and native code included
//   --inclusive TEXT  also print the time spent in, and synchronously under, the functions whose
//                 `name  file:line` contains TEXT (e.g. `--inclusive create-app.js`: a hook with
//                 everything it calls; work it starts asynchronously is not under it)
//   --files       also print the top files
//   --functions   also print the top functions (name, file:line)
//
// A benchmark's per-phase profile may have a sidecar `<name>.json` (bench/verifier-direct-post.mjs
// writes one) with the phase's `operations` and the CPU time of the process's event-loop thread
// over the window (`mainMicros`, from /proc). With it, each row also shows µs per operation: the
// row's share of the busy time × that thread's CPU per operation. (The profile samples that thread
// in wall time, which a shared machine stretches; the /proc figure is CPU time, so the shares are
// applied to it rather than the sampled milliseconds divided.)
//
// Waiting that the profile shows as work: when JavaScript hands a crypto job to the libuv thread
// pool (webcrypto, which jose uses: native `run` called from node:internal/crypto/util), waking
// the pool's thread often deschedules the event-loop thread on a busy machine, and the next sample
// lands in `run`. The same holds for node:crypto's callback forms of `verify` and `sign`
// (native `run` under `verifyOneShot`/`signOneShot` of node:internal/crypto/sig), which the
// verifier uses for mdoc and KB-JWT signatures; a synchronous `verify`/`sign` runs in that frame
// too, so a profile of code calling them synchronously on its hot path must not be read this way.
// Those samples are set apart ("crypto job hand-off") and left out of the busy
// time the shares are taken of: the signature itself is counted in the process's CPU (its other
// threads), not the event loop's. Socket writes (`writev`, `writeBuffer`) wake the process at the
// other end in the same way; they cannot be told apart from the write's own kernel work and stay in.
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

/** node:internal/crypto/sig functions whose native `run` hands a job to the thread pool in callback form. */
const ONE_SHOT_JOBS = ['verifyOneShot', 'signOneShot'];

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

/** Kinds of work, by package (or `node:` module) whose code does it. */
const GROUP_OF_PACKAGE = [
  ['database client (postgres-js, drizzle-orm)', /^(postgres|drizzle-orm)$/],
  [
    'HTTP (fastify, its schemas, node:http)',
    /^(fastify|@fastify\/.*|find-my-way|fast-json-stringify|fast-querystring|fast-uri|avvio|light-my-request|ajv|ajv-formats|typebox|@sinclair\/typebox|content-type|secure-json-parse|toad-cache|fast-decode-uri-component|process-warning|rfdc|json-schema-ref-resolver|abstract-logging|node:_http_.*|node:http|node:internal\/http)$/,
  ],
  ['crypto (jose, node:crypto, native jobs)', /^(jose|node:crypto|node:internal\/crypto|@noble\/.*)$/],
  ['X.509 / ASN.1 in JavaScript', /^(asn1js|pkijs|pvtsutils|pvutils|bytestreamjs|@peculiar\/.*|tsyringe)$/],
  [
    'credential formats (@sd-jwt, @auth0/mdl, cose-kit, cbor-x, cbor2, js-base64, dcql, valibot)',
    /^(@sd-jwt\/.*|@auth0\/mdl|cose-kit|cbor-x|cbor2|cbor-extract|js-base64|dcql|valibot|compare-versions|buffer-tag)$/,
  ],
  ['Tessera verifier code', /^@tessera\/verifier$/],
  ['Tessera kit and contracts', /^@tessera\/(service-kit|contracts)$/],
  [
    'logging, metrics, tracing (pino, prom-client, OpenTelemetry)',
    /^(pino|pino-std-serializers|fast-redact|@pinojs\/.*|sonic-boom|thread-stream|prom-client|tdigest|bintrees|@opentelemetry\/.*)$/,
  ],
  ['garbage collector', /^\(garbage collector\)$/],
];
const NODE_OTHER = "Node's own (streams, net, timers, promises) not attributable";

/** The group of a package name, or undefined for Node's generic internals and native code. */
function groupOfPackage(pkg) {
  for (const [group, pattern] of GROUP_OF_PACKAGE) if (pattern.test(pkg)) return group;
  if (pkg === '(native)' || pkg === '(root)' || pkg.startsWith('node:')) return undefined;
  if (pkg === '(program)') return '(program): V8 and the event loop outside JavaScript';
  return `other: ${pkg}`;
}

/**
 * `groupOf(node)` for a profile's nodes: a node's own package decides when it belongs to a group;
 * Node's generic internals (streams, net, timers, …) and native code without a script take the
 * group of their nearest caller that has one — so postgres-js's socket writes count as the
 * database client, a crypto job started by jose as crypto, a response's socket write as HTTP.
 */
function groupsOf(nodes) {
  const parentOf = new Map();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const memo = new Map();
  const groupOf = (node) => {
    if (memo.has(node.id)) return memo.get(node.id);
    const own = groupOfPackage(classify(node.callFrame).pkg);
    let group = own;
    if (group === undefined) {
      const parent = parentOf.get(node.id);
      group = parent && byId.get(parent.id) ? groupOf(parent) : NODE_OTHER;
    }
    memo.set(node.id, group);
    return group;
  };
  return (node) => groupOf(node);
}

/** Self time summed by package, file and function over the given profiles. */
export function summarizeProfiles(paths, window = {}) {
  const byPackage = new Map();
  const byFile = new Map();
  const byFunction = new Map();
  const byGroup = new Map();
  /** group → function → µs */
  const byGroupFunction = new Map();
  let total = 0;
  let idle = 0;
  let handOff = 0;
  const add = (map, key, micros) => map.set(key, (map.get(key) ?? 0) + micros);
  for (const path of paths) {
    const { nodes, selfMicros } = readSelfTimes(path, window);
    const groupOfNode = groupsOf(nodes);
    const parentOf = new Map();
    for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node);
    const isCryptoJobHandOff = (node) => {
      if (node.callFrame.functionName !== 'run' || node.callFrame.url) return false;
      const parent = parentOf.get(node.id)?.callFrame;
      return (
        parent?.url === 'node:internal/crypto/util' ||
        (parent?.url === 'node:internal/crypto/sig' && ONE_SHOT_JOBS.includes(parent.functionName))
      );
    };
    for (const node of nodes) {
      const micros = selfMicros.get(node.id) ?? 0;
      if (micros === 0) continue;
      total += micros;
      if (node.callFrame.functionName === '(idle)' && !node.callFrame.url) {
        idle += micros;
        continue;
      }
      if (isCryptoJobHandOff(node)) {
        handOff += micros;
        continue;
      }
      const { pkg, file } = classify(node.callFrame);
      add(byPackage, pkg, micros);
      add(byFile, file, micros);
      const group = groupOfNode(node);
      add(byGroup, group, micros);
      const name = node.callFrame.functionName || '(anonymous)';
      const where = node.callFrame.url ? `${name}  ${file}:${node.callFrame.lineNumber + 1}` : `${name}  ${file}`;
      add(byFunction, where, micros);
      if (!byGroupFunction.has(group)) byGroupFunction.set(group, new Map());
      add(byGroupFunction.get(group), where, micros);
    }
  }
  return {
    totalMicros: total,
    idleMicros: idle,
    handOffMicros: handOff,
    busyMicros: total - idle - handOff,
    byPackage,
    byFile,
    byFunction,
    byGroup,
    byGroupFunction,
  };
}

/**
 * Time in the subtrees of the frames whose `name  file:line` contains one of `texts`, by that
 * text and frame; a frame under another matching frame of the same text is not counted twice.
 */
export function inclusiveTimes(paths, texts, window = {}) {
  const totals = new Map();
  for (const path of paths) {
    const { nodes, selfMicros } = readSelfTimes(path, window);
    const byId = new Map(nodes.map((node) => [node.id, node]));
    const label = (node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const { file } = classify(node.callFrame);
      return url ? `${functionName || '(anonymous)'}  ${file}:${lineNumber + 1}` : `${functionName}  ${file}`;
    };
    const subtree = (node) =>
      (selfMicros.get(node.id) ?? 0) + (node.children ?? []).reduce((sum, id) => sum + subtree(byId.get(id)), 0);
    const visit = (node, inside) => {
      const name = label(node);
      const matched = texts.filter((text) => !inside.has(text) && name.includes(text));
      if (matched.length > 0) totals.set(name, (totals.get(name) ?? 0) + subtree(node));
      const next = matched.length > 0 ? new Set([...inside, ...matched]) : inside;
      for (const id of node.children ?? []) visit(byId.get(id), next);
    };
    visit(nodes[0], new Set());
  }
  return totals;
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

/** The sidecar figures of the profiles (operations, the process's CPU µs), when every profile has one. */
export function readPhaseCosts(paths) {
  let operations = 0;
  let cpuMicros = 0;
  for (const path of paths) {
    const sidecar = path.replace(/\.cpuprofile$/, '.json');
    if (sidecar === path || !existsSync(sidecar)) return undefined;
    const figures = JSON.parse(readFileSync(sidecar, 'utf8'));
    operations += figures.operations;
    cpuMicros += figures.mainMicros;
  }
  return operations > 0 && Number.isFinite(cpuMicros)
    ? { operations, cpuMicrosPerOperation: cpuMicros / operations }
    : undefined;
}

function printTable(title, map, busy, top, perOperation) {
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const width = Math.min(90, Math.max(title.length, ...rows.map(([key]) => key.length)));
  console.log(`\n${title.padEnd(width)}   self ms   % busy${perOperation ? '   ≈ µs/op' : ''}`);
  for (const [key, micros] of rows) {
    const shown = key.length > width ? `…${key.slice(key.length - width + 1)}` : key;
    const share = micros / busy;
    console.log(
      `${shown.padEnd(width)}  ${(micros / 1000).toFixed(0).padStart(8)}   ${(100 * share).toFixed(1).padStart(5)} %${perOperation ? `  ${(share * perOperation).toFixed(0).padStart(8)}` : ''}`,
    );
  }
}

function main(argv) {
  let top = 20;
  let files = false;
  let functions = false;
  let groups = false;
  const groupFilters = [];
  const inclusive = [];
  const window = {};
  const paths = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--top') top = Number(argv[++i]);
    else if (arg === '--files') files = true;
    else if (arg === '--functions') functions = true;
    else if (arg === '--groups') groups = true;
    else if (arg === '--group') groupFilters.push(argv[++i]);
    else if (arg === '--inclusive') inclusive.push(argv[++i]);
    else if (arg === '--from') window.fromSeconds = Number(argv[++i]);
    else if (arg === '--to') window.toSeconds = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') paths.length = 0;
    else paths.push(arg);
  }
  const profiles = expandProfilePaths(paths);
  if (profiles.length === 0) {
    console.error(
      'usage: node bench/lib/profile-summary.mjs [--top N] [--groups] [--group TEXT] [--inclusive TEXT] [--files] [--functions] [--from S] [--to S] <profile.cpuprofile | dir>...',
    );
    process.exit(2);
  }
  const summary = summarizeProfiles(profiles, window);
  const ms = (micros) => (micros / 1000).toFixed(0);
  console.log(
    `${profiles.length} profile(s): ${ms(summary.totalMicros)} ms sampled, ${ms(summary.busyMicros)} ms busy (${((100 * summary.busyMicros) / Math.max(1, summary.totalMicros)).toFixed(0)} %), idle excluded below`,
  );
  console.log(
    `crypto job hand-off (native run under node:internal/crypto/util or a one-shot verify/sign, mostly the event loop descheduled): ${ms(summary.handOffMicros)} ms sampled, ${((100 * summary.handOffMicros) / Math.max(1, summary.busyMicros + summary.handOffMicros)).toFixed(1)} % of busy + hand-off, excluded below`,
  );
  // A time window cuts the profile, not the sidecar's figures: µs per operation only for whole profiles.
  const costs = window.fromSeconds || window.toSeconds ? undefined : readPhaseCosts(profiles);
  if (costs)
    console.log(
      `${costs.operations} operations, the event loop thread's CPU ${costs.cpuMicrosPerOperation.toFixed(0)} µs per operation (/proc): ≈ µs/op = share of busy time × that`,
    );
  const perOperation = costs?.cpuMicrosPerOperation;
  if (groups)
    printTable(
      'kind of work (callers own Node internals and native code)',
      summary.byGroup,
      summary.busyMicros,
      top,
      perOperation,
    );
  for (const filter of groupFilters)
    for (const [group, functions] of summary.byGroupFunction)
      if (group.includes(filter))
        printTable(`functions of: ${group}`, functions, summary.busyMicros, top, perOperation);
  if (inclusive.length > 0)
    printTable(
      'inclusive time of functions (self + what they call synchronously)',
      inclusiveTimes(profiles, inclusive, window),
      summary.busyMicros,
      top,
      perOperation,
    );
  printTable('package', summary.byPackage, summary.busyMicros, top, perOperation);
  if (files) printTable('file', summary.byFile, summary.busyMicros, top, perOperation);
  if (functions) printTable('function', summary.byFunction, summary.busyMicros, top, perOperation);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
