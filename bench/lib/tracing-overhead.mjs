// BENCH_TRACING=compare (issue 16 item 5): runs the benchmark script with tracing off and
// on (every span sampled, exported to a local OTLP collector stub) in one run, each run
// against a fresh verifier and database, and prints on ÷ off per measured row.
// The target: tracing costs at most 15 % (ratio >= 0.85). A child run writes its rows
// to BENCH_ROWS_FILE.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGET_RATIO = 0.85;

function runChild(script, mode, rowsFile, phases) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, BENCH_TRACING: mode, BENCH_ROWS_FILE: rowsFile, BENCH_PHASES: phases.join(',') },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the tracing ${mode} run exited ${code}`)),
    );
  });
}

/** Writes a child run's rows where the comparing run reads them (BENCH_ROWS_FILE). */
export function writeRows(rows) {
  if (process.env.BENCH_ROWS_FILE) writeFileSync(process.env.BENCH_ROWS_FILE, JSON.stringify(rows));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Runs `scriptUrl` (this benchmark) with tracing off and on over `phases` (the
 * throughput phases; default b and d: verification alone and the whole flow),
 * BENCH_TRACING_ROUNDS times (default 2) in ABBA order — off, on, on, off, … — so a
 * machine whose load drifts during the run weighs on both sides alike, and prints the
 * ratio of the medians. Resolves with true when every ratio meets the target.
 */
export async function compareTracingOverhead(scriptUrl, phases) {
  const script = fileURLToPath(scriptUrl);
  const rounds = Math.max(1, Number(process.env.BENCH_TRACING_ROUNDS ?? 2));
  const dir = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  try {
    const results = { off: [], on: [] };
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        console.log(`\n== round ${round + 1} of ${rounds}: tracing ${mode} ==`);
        const rowsFile = join(dir, `${round}-${mode}.json`);
        await runChild(script, mode, rowsFile, phases);
        results[mode].push(JSON.parse(readFileSync(rowsFile, 'utf8')));
      }
    }
    console.log(
      `\ntracing overhead (same run, median of ${rounds} run(s) each; on = every span sampled, exported over OTLP/HTTP to a local collector stub):`,
    );
    let pass = true;
    for (const row of results.off[0]) {
      // Rates only: a cost row (CPU µs, statements per operation) is not an on ÷ off throughput.
      if (row.target === 'informative' || row.kind === 'cost') continue;
      const valuesOf = (mode) =>
        results[mode].map((rows) => Number(rows.find((other) => other.metric === row.metric)?.value));
      const [off, on] = [median(valuesOf('off')), median(valuesOf('on'))];
      const ratio = on / off;
      pass &&= ratio >= TARGET_RATIO;
      console.log(
        `  ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'}  ${row.metric}: on ${valuesOf('on').join(', ')} vs off ${valuesOf('off').join(', ')} → ratio of medians ${ratio.toFixed(3)}, overhead ${((1 - ratio) * 100).toFixed(1)} % (target <= 15 %)`,
      );
    }
    return pass;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
