import { readFileSync } from 'node:fs';
import { ConfigError } from './config.js';

/**
 * Secrets mounted as files (a Kubernetes Secret volume) instead of environment variables,
 * which every process in the container, `kubectl describe` and crash dumps can see:
 * for each `NAME` in `names`, `NAME_FILE` names a file whose content, without the
 * trailing newline, becomes `NAME`. Giving both is refused, as is an unreadable file.
 * Problems name the variable and the path, never the content.
 */
export function withSecretFiles(
  env: Record<string, string | undefined>,
  names: readonly string[],
): Record<string, string | undefined> {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const path = env[`${name}_FILE`];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}, ${name}_FILE: give one, not both`);
      continue;
    }
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}
