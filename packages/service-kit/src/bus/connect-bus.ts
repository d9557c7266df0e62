import { Type } from 'typebox';
import type { Logger } from '../logger.js';
import { InProcessBus, type InProcessHub } from './in-process-bus.js';
import type { MessageBus } from './message-bus.js';
import { NatsBus } from './nats-bus.js';
import { traceBus } from '../tracing/bus-tracing.js';

export interface ConnectBusOptions {
  /** NATS_URL; when absent the in-process transport is used. */
  url?: string;
  name: string;
  logger: Logger;
  user?: string;
  pass?: string;
  token?: string;
  hub?: InProcessHub;
}

/** NATS when a URL is configured, otherwise the in-process transport. */
export async function connectBus(options: ConnectBusOptions): Promise<MessageBus> {
  return traceBus(await connectTransport(options), options.name);
}

async function connectTransport(options: ConnectBusOptions): Promise<MessageBus> {
  if (!options.url) return new InProcessBus(options.hub);
  return NatsBus.connect({
    url: options.url,
    name: options.name,
    logger: options.logger,
    ...(options.user ? { user: options.user, pass: options.pass ?? '' } : {}),
    ...(options.token ? { token: options.token } : {}),
  });
}

/** NATS variables of the services that use the bus; without NATS_URL the in-process transport is used. */
export const natsConfigProperties = {
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls|wss?)://' })),
  NATS_USER: Type.Optional(Type.String({ minLength: 1 })),
  NATS_PASS: Type.Optional(Type.String({ minLength: 1 })),
  NATS_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
};

/** `connectBus` from a service's NATS variables (see `natsConfigProperties`). */
export function connectBusFromConfig(
  config: { NATS_URL?: string; NATS_USER?: string; NATS_PASS?: string; NATS_TOKEN?: string },
  options: { name: string; logger: Logger; hub?: InProcessHub },
): Promise<MessageBus> {
  return connectBus({
    url: config.NATS_URL,
    name: options.name,
    logger: options.logger,
    ...(config.NATS_USER ? { user: config.NATS_USER, pass: config.NATS_PASS ?? '' } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
    ...(options.hub ? { hub: options.hub } : {}),
  });
}
