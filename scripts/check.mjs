// `npm run check`: the house rules, as CI runs them (issue 23, item 4). Each step reports
// every problem it finds; the command fails when any step does.
//   1. formatting   prettier --check (npm run format writes it)
//   2. lint         eslint, typed rules (no floating promises, no unused values, no `any` outside tests, type imports)
//   3. layering     dependency-cruiser over every service's src/ and test/ and the packages (.dependency-cruiser.cjs)
//   4. types        tsc --noEmit of every package, tests included
// `npm run check -- --fix` lets prettier and eslint fix what they can first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fix = process.argv.includes('--fix');
const bin = (name) => `node_modules/.bin/${name}`;

if (!existsSync(`${root}${bin('eslint')}`)) {
  console.error('check: dependencies are not installed; run `npm test` or `node scripts/pnpm.mjs install` first');
  process.exit(1);
}

const layered = ['services/*/src', 'services/*/test', 'packages/*/src'];
const steps = [
  ['formatting', bin('prettier'), [fix ? '--write' : '--check', '--log-level', 'warn', '.']],
  ['lint', bin('eslint'), [...(fix ? ['--fix'] : []), '--max-warnings', '0', '.']],
  ['layering', bin('depcruise'), [...layered, '--config', '.dependency-cruiser.cjs', '--output-type', 'err']],
  ['types', 'node', ['scripts/pnpm.mjs', 'exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']],
];

let failed = 0;
for (const [name, command, args] of steps) {
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: command !== 'node' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status === 0) console.log(`check: ${name} ok (${seconds} s)`);
  else {
    failed += 1;
    console.error(`check: ${name} FAILED (${seconds} s)`);
  }
}
process.exit(failed === 0 ? 0 : 1);
