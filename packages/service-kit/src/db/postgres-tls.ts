import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { checkServerIdentity, type ConnectionOptions } from 'node:tls';

/** The libpq `sslmode` values postgres.js connects with, but without verifying the server. */
const UNVERIFIED_SSL_MODES = new Set(['require', 'prefer', 'allow']);

/** DATABASE_URL's `sslmode` (or postgres.js's `ssl`) query parameter, if any. */
export function sslModeOf(url: string): string | undefined {
  // Not `new URL(url)`: a multi-host URL is no WHATWG URL.
  const query = new URLSearchParams(url.split('?')[1]?.split('#')[0] ?? '');
  return query.get('sslmode') ?? query.get('ssl') ?? undefined;
}

/** The host names a postgres:// URL lists (postgres.js accepts `host1:5432,host2:5432`). */
function hostsOf(url: string): string[] {
  const authority = url.replace(/^postgres(ql)?:\/\//, '').split(/[/?#]/, 1)[0] ?? '';
  const hostPart = authority.includes('@') ? authority.slice(authority.lastIndexOf('@') + 1) : authority;
  return hostPart.split(',').map((entry) => entry.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/:\d+$/, ''));
}

/**
 * postgres.js's `ssl` option for DATABASE_URL and DATABASE_CA_FILE, verifying as libpq does:
 * with a CA, full verification (chain to that CA and the host name) unless the URL says
 * `sslmode=verify-ca` (chain only); `verify-full`/`verify-ca` without a CA use the system
 * roots. Returns undefined where postgres.js's own reading of the URL applies (no TLS, or
 * `require`/`prefer`, which verify nothing and are refused in production by
 * `databaseTlsConfigRule`).
 *
 * The host name is checked against the URL's host: for a host given as an IP address
 * postgres.js sends no SNI and Node would otherwise check the certificate against
 * "localhost".
 */
export function postgresSslOptions(url: string, caFile: string | undefined): ConnectionOptions | undefined {
  const mode = sslModeOf(url);
  if (mode === 'disable' || mode === 'false') return undefined;
  if (!caFile && mode !== 'verify-full' && mode !== 'verify-ca') return undefined;
  const options: ConnectionOptions = {
    rejectUnauthorized: true,
    ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
  };
  if (mode === 'verify-ca') return { ...options, checkServerIdentity: () => undefined };
  const [host] = hostsOf(url);
  if (!host) return options;
  return {
    ...options,
    ...(isIP(host) ? {} : { servername: host }),
    checkServerIdentity: (_checked, certificate) => checkServerIdentity(host, certificate),
  };
}

/**
 * Config rule: a production DATABASE_URL must verify the server it talks to. `sslmode=require`
 * (or prefer/allow) without DATABASE_CA_FILE encrypts against anyone who answers, so it is
 * refused; DATABASE_CA_FILE with `sslmode=disable` contradicts itself; and a CA checks one
 * host name, so a multi-host URL cannot take one.
 */
export function databaseTlsConfigRule(config: {
  NODE_ENV: string;
  DATABASE_URL?: string;
  DATABASE_CA_FILE?: string;
}): string | undefined {
  if (!config.DATABASE_URL) return undefined;
  const mode = sslModeOf(config.DATABASE_URL);
  if (config.DATABASE_CA_FILE && (mode === 'disable' || mode === 'false'))
    return 'DATABASE_CA_FILE, DATABASE_URL: a CA is given but DATABASE_URL says sslmode=disable';
  if (config.DATABASE_CA_FILE && hostsOf(config.DATABASE_URL).length > 1)
    return 'DATABASE_CA_FILE, DATABASE_URL: verified TLS needs a single host in DATABASE_URL';
  if (config.NODE_ENV === 'production' && mode && UNVERIFIED_SSL_MODES.has(mode) && !config.DATABASE_CA_FILE) {
    return `DATABASE_URL: sslmode=${mode} does not verify the server; set DATABASE_CA_FILE (full verification) or use sslmode=verify-full in production`;
  }
  return undefined;
}
