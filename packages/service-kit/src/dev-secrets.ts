import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Development mode only: a secret generated on first use and kept in
 * `<dataDir>/dev-secrets.json` (mode 0600), so restarts reuse it. Production
 * configuration must always provide secrets itself.
 */
export function ensureDevSecret(
  dataDir: string,
  name: string,
  generate: () => string = () => randomBytes(24).toString('base64url'),
): string {
  const path = join(dataDir, 'dev-secrets.json');
  const secrets: Record<string, string> = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>)
    : {};
  const existing = secrets[name];
  if (existing) return existing;
  secrets[name] = generate();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets[name];
}
