import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import type { Logger } from '../logger.js';
import { InProcessBus, type InProcessHub } from './in-process-bus.js';
import type { MessageBus } from './message-bus.js';
import { NatsBus, type ConnectNatsOptions } from './nats-bus.js';
import { traceBus } from '../tracing/bus-tracing.js';

export interface ConnectBusOptions extends Omit<ConnectNatsOptions, 'url'> {
  /** NATS_URL; when absent the in-process transport is used. */
  url?: string;
  hub?: InProcessHub;
}

/** NATS when a URL is configured, otherwise the in-process transport. */
export async function connectBus(options: ConnectBusOptions): Promise<MessageBus> {
  return traceBus(await connectTransport(options), options.name);
}

async function connectTransport(options: ConnectBusOptions): Promise<MessageBus> {
  const { url, hub, ...nats } = options;
  if (!url) return new InProcessBus(hub);
  return NatsBus.connect({ ...nats, url });
}

/** NATS variables of the services that use the bus; without NATS_URL the in-process transport is used. */
export const natsConfigProperties = {
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls|wss?)://' })),
  /** PEM CA the NATS server's certificate must chain to; set (or a tls:// URL), TLS is required. */
  NATS_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** The service's own NATS user (infra/nats/nats-server.conf: `verifier`, `ecosystem`). */
  NATS_USER: Type.Optional(Type.String({ minLength: 1 })),
  /** File holding NATS_USER's password (a mounted Secret); preferred to NATS_PASS. */
  NATS_PASS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  NATS_PASS: Type.Optional(Type.String({ minLength: 1 })),
  /** NKEY/JWT credentials file, instead of NATS_USER + password. */
  NATS_CREDS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  NATS_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Production refuses a plain or anonymous NATS connection unless this says the setup is
   * local only (docker compose, the dev overlay): anyone who can reach such a server can
   * answer the services' requests.
   */
  NATS_ALLOW_INSECURE: Type.Boolean({ default: false }),
};

interface NatsConfig {
  NATS_URL?: string;
  NATS_CA_FILE?: string;
  NATS_USER?: string;
  NATS_PASS_FILE?: string;
  NATS_PASS?: string;
  NATS_CREDS_FILE?: string;
  NATS_TOKEN?: string;
  NATS_ALLOW_INSECURE?: boolean;
}

/** True when every server of NATS_URL is reached over TLS (or the CA file requires it). */
function usesTls(config: NatsConfig): boolean {
  if (config.NATS_CA_FILE) return true;
  return !!config.NATS_URL && config.NATS_URL.split(',').every((server) => /^(tls|wss):\/\//.test(server.trim()));
}

/**
 * Config rule for the NATS variables: one way to give each credential, a user with a
 * password, and in production TLS and a per-service identity (or NATS_ALLOW_INSECURE).
 */
export function natsConfigRule(config: NatsConfig & { NODE_ENV: string }): string | undefined {
  if (config.NATS_PASS && config.NATS_PASS_FILE) return 'NATS_PASS, NATS_PASS_FILE: give one, not both';
  if (config.NATS_USER && !config.NATS_PASS && !config.NATS_PASS_FILE)
    return 'NATS_USER: needs its password in NATS_PASS_FILE (or NATS_PASS)';
  if (!config.NATS_USER && (config.NATS_PASS || config.NATS_PASS_FILE))
    return `${config.NATS_PASS ? 'NATS_PASS' : 'NATS_PASS_FILE'}: a password needs NATS_USER`;
  if (config.NATS_CREDS_FILE && (config.NATS_USER || config.NATS_TOKEN))
    return 'NATS_CREDS_FILE: give a credentials file or NATS_USER/NATS_TOKEN, not both';
  if (config.NODE_ENV !== 'production' || !config.NATS_URL || config.NATS_ALLOW_INSECURE) return undefined;
  if (!usesTls(config))
    return 'NATS_URL: production needs tls:// (with NATS_CA_FILE) so the bus is encrypted and the server verified; NATS_ALLOW_INSECURE=true only for a local-only setup';
  if (!config.NATS_USER && !config.NATS_CREDS_FILE)
    return "NATS_USER, NATS_CREDS_FILE: production needs the service's own NATS identity (NATS_USER + NATS_PASS_FILE, or NATS_CREDS_FILE)";
  return undefined;
}

/** A secret read from a mounted file: trailing newlines (as `echo` and editors leave them) are not part of it. */
function readSecretFile(path: string): string {
  return readFileSync(path, 'utf8').replace(/[\r\n]+$/, '');
}

/** `connectBus` from a service's NATS variables (see `natsConfigProperties`). */
export function connectBusFromConfig(
  config: NatsConfig,
  options: { name: string; logger: Logger; hub?: InProcessHub },
): Promise<MessageBus> {
  const pass = config.NATS_PASS_FILE ? readSecretFile(config.NATS_PASS_FILE) : config.NATS_PASS;
  return connectBus({
    url: config.NATS_URL,
    name: options.name,
    logger: options.logger,
    ...(config.NATS_USER ? { user: config.NATS_USER, pass: pass ?? '' } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
    ...(config.NATS_CREDS_FILE ? { creds: readFileSync(config.NATS_CREDS_FILE) } : {}),
    ...(usesTls(config) ? { tls: config.NATS_CA_FILE ? { caFile: config.NATS_CA_FILE } : {} } : {}),
    ...(options.hub ? { hub: options.hub } : {}),
  });
}
