import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the demos find the services `npm start` runs (override with the DEMO_*_URL variables). */
export interface ServiceUrls {
  verifier: string;
  ecosystem: string;
  statusList: string;
}

export function serviceUrlsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceUrls {
  return {
    verifier: env.DEMO_VERIFIER_URL ?? 'http://localhost:3001',
    ecosystem: env.DEMO_ECOSYSTEM_URL ?? 'http://localhost:3002',
    statusList: env.DEMO_STATUS_LIST_URL ?? 'http://localhost:3003',
  };
}

/** The data directory of `npm start`: its development signing key mints the demo's tokens. */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? join(process.cwd(), '.data'));
}

/** The status list service's API key: STATUS_LIST_API_KEY, or the one `npm start` generated. */
export function statusListApiKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.STATUS_LIST_API_KEY) return env.STATUS_LIST_API_KEY;
  const secrets = JSON.parse(readFileSync(join(dataDir, 'dev-secrets.json'), 'utf8')) as Record<string, string>;
  if (!secrets.STATUS_LIST_API_KEY)
    throw new Error('no STATUS_LIST_API_KEY: set it, or run the demo against `npm start`');
  return secrets.STATUS_LIST_API_KEY;
}
