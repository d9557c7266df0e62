import type { DbOrTx } from '@tessera/service-kit';
import type { StatusListDbSchema } from './schema.js';

/** The status list database, or a transaction on it: every query takes one. */
export type StatusListDb = DbOrTx<StatusListDbSchema>;

/** A transaction on the status list database: what statements that must run inside one take. */
export type StatusListTx = Parameters<Parameters<StatusListDb['transaction']>[0]>[0];
