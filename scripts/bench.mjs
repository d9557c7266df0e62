// `npm run bench [-- name...]`: builds, then runs the benchmarks under bench/ one after
// another (each prints its ratio against a baseline measured in the same run).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runPnpm } from './pnpm.mjs';

const benchDir = fileURLToPath(new URL('../bench', import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(benchDir)
  .filter((file) => file.endsWith('.mjs'))
  .map((file) => file.replace(/\.mjs$/, ''));
const selected = wanted.length > 0 ? wanted : all;
const unknown = selected.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}

runPnpm(['install', '--reporter=append-only', '--prefer-offline']);
runPnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
let failed = 0;
for (const name of selected) {
  console.log(`\n=== bench/${name}`);
  const result = spawnSync(process.execPath, [join(benchDir, `${name}.mjs`)], { stdio: 'inherit', cwd: benchDir });
  if (result.status !== 0) failed += 1;
}
writeResultsTable();
process.exit(failed > 0 ? 1 : 0);

/**
 * Gathers bench/results/*.json (this run and earlier ones) into the table of the
 * latest runs in bench/RESULTS.md, between its `<!-- latest-runs:start -->` and
 * `<!-- latest-runs:end -->` markers; the rest of the file (medians of three runs,
 * profile summaries) is written by hand and kept as it is.
 */
function writeResultsTable() {
  const resultsDir = join(benchDir, 'results');
  if (!existsSync(resultsDir)) return;
  const results = readdirSync(resultsDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(resultsDir, file), 'utf8')))
    .sort((a, b) => a.name.localeCompare(b.name));
  const escape = (text) => String(text).replace(/\|/g, '\\|');
  const lines = [
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}; one run of each benchmark found in bench/results/.`,
    '',
    '| benchmark | measured | value | baseline (same run) | ratio | target | met | run |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    for (const row of result.rows) {
      lines.push(
        `| ${result.name} | ${escape(row.metric)} | ${escape(row.value)} | ${escape(row.baseline)} | ${Number(row.ratio).toFixed(3)} | ${escape(row.target)} | ${row.pass ? 'yes' : '**no**'} | ${result.date.slice(0, 16).replace('T', ' ')} |`,
      );
    }
  }
  const file = join(benchDir, 'RESULTS.md');
  const start = '<!-- latest-runs:start -->';
  const end = '<!-- latest-runs:end -->';
  const table = `${start}\n${lines.join('\n')}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n\n## Latest runs\n\n';
  const next =
    current.includes(start) && current.includes(end)
      ? current.slice(0, current.indexOf(start)) + table + current.slice(current.indexOf(end) + end.length)
      : `${current.trimEnd()}\n\n${table}\n`;
  writeFileSync(file, next);
  console.log(`\nwrote the latest runs into bench/RESULTS.md (${results.length} benchmarks)`);
}
