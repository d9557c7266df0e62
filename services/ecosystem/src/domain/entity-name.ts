import type { ErrorDetail } from '@tessera/contracts';

/**
 * A trusted entity's name with outer spaces trimmed and inner runs of spaces made one,
 * 1–200 characters after that; or the problem, at `path`.
 */
export function normaliseEntityName(value: string, path = '/name'): { name: string; problems: ErrorDetail[] } {
  const name = value.trim().replace(/\s+/g, ' ');
  if (name.length < 1 || name.length > 200)
    return {
      name,
      problems: [{ path, message: `body ${path} must be 1 to 200 characters, not counting outer spaces` }],
    };
  return { name, problems: [] };
}
