// Small helpers shared by the infra checks: running commands, free ports, the reporter.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const INFRA_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The deployables, their workspace package names and default ports (services/<name>/src/config.ts). */
export const SERVICE_NAMES = ['status-list', 'ecosystem', 'verifier', 'console'];

/**
 * The services with a database of their own: migrations in the image, the migrate init
 * container and the `*-migrate` compose run. The console has none (it calls the others).
 */
export const DATABASE_SERVICES = ['status-list', 'ecosystem', 'verifier'];
export const hasDatabase = (service) => DATABASE_SERVICES.includes(service);

export class CheckFailure extends Error {}

/** Throws a CheckFailure (reported as one FAIL line) when `condition` is false. */
export function assert(condition, message) {
  if (!condition) throw new CheckFailure(message);
}

/**
 * Runs a command without a shell (or with one when `shell` is set); resolves with its
 * exit code and output. Rejects only when it cannot start or exceeds `timeoutMs`.
 */
export function run(command, args, { cwd, env, timeoutMs = 300_000, shell = false, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, shell, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new CheckFailure(`${command} ${args.join(' ')}: no result after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), signal, stdout, stderr });
    });
    // A command that exits without reading its input closes the pipe first: that EPIPE is not
    // the command's failure (its exit code says how it went), so it must not crash the checks.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Like `run`, but a non-zero exit is a CheckFailure quoting the output's last lines. */
export async function runOrFail(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new CheckFailure(
      `\`${[command, ...args].join(' ')}\` exited ${result.code}\n${tail(result.stdout + result.stderr, 25)}`,
    );
  }
  return result;
}

export function tail(text, lines) {
  return text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => `    | ${line}`)
    .join('\n');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints one line per check: `ok`, `FAIL` (with the reason indented below) or `skip`. */
export class Reporter {
  passed = 0;
  failed = 0;
  skipped = 0;

  async check(name, fn) {
    const started = Date.now();
    try {
      const detail = await fn();
      this.passed++;
      console.log(`ok   ${name}${detail ? ` — ${detail}` : ''} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
      return true;
    } catch (error) {
      this.failed++;
      const message = error instanceof CheckFailure ? error.message : (error?.stack ?? String(error));
      console.log(`FAIL ${name}: ${message}`);
      return false;
    }
  }

  skip(name, reason) {
    this.skipped++;
    console.log(`skip ${name}: ${reason}`);
  }

  summary() {
    const total = this.passed + this.failed;
    const skipped = this.skipped ? `, ${this.skipped} skipped` : '';
    return this.failed === 0
      ? `infra checks: all ${total} ok${skipped}`
      : `infra checks: ${this.failed} of ${total} FAILED${skipped}`;
  }
}

/**
 * A problem list and `want(ok, message)`, which records `message` unless `ok` and
 * returns whether it was ok (so `if (!want(x, '…')) continue;` skips what needs x).
 */
export function collectProblems() {
  const problems = [];
  const want = (ok, message) => {
    if (!ok) problems.push(message);
    return Boolean(ok);
  };
  return { problems, want };
}
