import type { DbOrTx } from '@tessera/service-kit';
import type { StatusListDbSchema } from './schema.js';

/** The status list database, or a transaction on it: every query takes one. */
export type StatusListDb = DbOrTx<StatusListDbSchema>;
