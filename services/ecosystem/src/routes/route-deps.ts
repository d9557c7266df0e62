import type { Logger, MessageBus } from '@tessera/service-kit';
import type { EcoDb } from '../db/db-types.js';

/** What route modules need: the database, the bus (verifier checks) and the feature switch. */
export interface RouteDeps {
  db: EcoDb;
  bus: MessageBus;
  logger: Logger;
  enabled: boolean;
}
