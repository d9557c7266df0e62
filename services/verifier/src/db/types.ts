import type { DbOrTx } from '@tessera/service-kit';
import type { VerifierDbSchema } from './schema.js';

/** What every query function takes: the database or a transaction of it. */
export type VerifierDb = DbOrTx<VerifierDbSchema>;
