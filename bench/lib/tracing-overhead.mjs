// BENCH_TRACING=compare (issue 16 item 5): runs the benchmark script twice in one run,
// tracing off and then on (every span sampled, exported to a local OTLP collector stub),
// each against a fresh verifier and database, and prints on ÷ off per measured row.
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
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the tracing ${mode} run exited ${code}`))));
  });
}

/** Rows a child run wrote (BENCH_ROWS_FILE), by metric. */
export function writeRows(rows) {
  if (process.env.BENCH_ROWS_FILE) writeFileSync(process.env.BENCH_ROWS_FILE, JSON.stringify(rows));
}

/**
 * Runs `scriptUrl` (this benchmark) with tracing off, then on, over `phases` (the
 * throughput phases; default b and d: verification alone and the whole flow) and
 * prints the ratios. Resolves with true when every ratio meets the target.
 */
export async function compareTracingOverhead(scriptUrl, phases) {
  const script = fileURLToPath(scriptUrl);
  const dir = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  try {
    const results = {};
    for (const mode of ['off', 'on']) {
      console.log(`\n== tracing ${mode} ==`);
      const rowsFile = join(dir, `${mode}.json`);
      await runChild(script, mode, rowsFile, phases);
      results[mode] = JSON.parse(readFileSync(rowsFile, 'utf8'));
    }
    console.log('\ntracing overhead (same run; on = every span sampled, exported over OTLP/HTTP to a local collector stub):');
    let pass = true;
    for (const off of results.off) {
      const on = results.on.find((row) => row.metric === off.metric);
      if (!on || off.target === 'informative') continue;
      const ratio = Number(on.value) / Number(off.value);
      pass &&= ratio >= TARGET_RATIO;
      console.log(`  ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'}  ${off.metric}: on ${on.value} vs off ${off.value} → ratio ${ratio.toFixed(3)}, overhead ${((1 - ratio) * 100).toFixed(1)} % (target <= 15 %)`);
    }
    return pass;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
