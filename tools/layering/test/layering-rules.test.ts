// Each layering rule of .dependency-cruiser.cjs rejects the case made for it under
// fixtures/ (a file whose first comment names the rule), and nothing else there: the
// rules that CI runs over the real tree are shown to bite, one by one.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const require = createRequire(import.meta.url);
const config = require(join(root, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string }> };

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruiseFixtures(): Violation[] {
  const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const run = spawnSync(
    process.execPath,
    [cli, relative(root, fixtures), '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: root, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 },
  );
  if (!run.stdout) throw new Error(`dependency-cruiser printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The fixture files that declare, in their first line, the rule they break. */
function declaredCases(dir: string): Map<string, string> {
  const cases = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const first = readFileSync(path, 'utf8').split('\n')[0] ?? '';
    const match = /^\/\/ ([a-z-]+)/.exec(first);
    if (match && match[1] !== 'allowed') cases.set(relative(root, path), match[1]!);
  }
  return cases;
}

describe('the layering rules (dependency-cruiser)', () => {
  const violations = cruiseFixtures();
  const cases = declaredCases(fixtures);

  it('has a rejected case for every rule in the configuration', () => {
    expect(new Set(cases.values())).toEqual(new Set(config.forbidden.map((rule) => rule.name)));
  });

  it.each(config.forbidden.map((rule) => rule.name))('rule %s rejects its case', (name) => {
    const expected = [...cases].filter(([, rule]) => rule === name).map(([path]) => path);
    const found = violations.filter((violation) => violation.rule.name === name).map((violation) => violation.from);
    expect(found.length).toBeGreaterThan(0);
    for (const path of expected) expect(found).toContain(path);
  });

  it('rejects nothing but the declared cases (type-only row imports in adapters are allowed)', () => {
    const unexpected = violations.filter((violation) => cases.get(violation.from) !== violation.rule.name);
    // The cycle's second file is reported by the rule of the first.
    expect(unexpected.filter((violation) => !violation.from.endsWith('cycle-b.ts'))).toEqual([]);
  });
});
