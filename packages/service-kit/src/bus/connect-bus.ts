import type { Logger } from '../logger.js';
import { InProcessBus, type InProcessHub } from './in-process-bus.js';
import type { MessageBus } from './message-bus.js';
import { NatsBus } from './nats-bus.js';

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
  if (!options.url) return new InProcessBus(options.hub);
  return NatsBus.connect({
    url: options.url,
    name: options.name,
    logger: options.logger,
    ...(options.user ? { user: options.user, pass: options.pass ?? '' } : {}),
    ...(options.token ? { token: options.token } : {}),
  });
}
