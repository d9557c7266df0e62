// `npm run bench [-- name...]`: builds, then runs the benchmarks under bench/ one after
// another (each prints its ratio against a baseline measured in the same run).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runPnpm } from './pnpm.mjs';

const benchDir = fileURLToPath(new URL('../bench', import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(benchDir).filter((file) => file.endsWith('.mjs')).map((file) => file.replace(/\.mjs$/, ''));
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
process.exit(failed > 0 ? 1 : 0);
