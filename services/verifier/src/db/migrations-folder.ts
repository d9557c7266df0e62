import { fileURLToPath } from 'node:url';

/** The committed drizzle-kit migrations, next to `src`/`dist` in the service folder. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
