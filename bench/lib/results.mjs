// Each benchmark writes bench/results/<name>.json; `npm run bench` gathers them into
// bench/RESULTS.md. A row: what was measured, its baseline from the same run, the
// ratio and the target it is held to.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const resultsDir = fileURLToPath(new URL('../results', import.meta.url));

/**
 * @param {string} name
 * @param {Array<{ metric: string, value: string, baseline: string, ratio: number, target: string, pass: boolean }>} rows
 */
export function writeResult(name, rows) {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, `${name}.json`),
    JSON.stringify({ name, date: new Date().toISOString(), rows }, null, 2),
  );
  for (const row of rows) {
    console.log(
      `  ${row.pass ? 'PASS' : 'MISS'}  ${row.metric}: ${row.value} vs ${row.baseline} → ratio ${row.ratio.toFixed(2)} (target ${row.target})`,
    );
  }
}
