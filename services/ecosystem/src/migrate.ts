// Applies the committed migrations and exits: the migrate init container's entry point.
// It reads the database settings only (the kit's runMigrateMain), none of the service's own.
import { runMigrateMain } from '@tessera/service-kit';
import { SERVICE_NAME } from './config.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';

await runMigrateMain({ service: SERVICE_NAME, migrationsFolder: MIGRATIONS_FOLDER });
