// Test support for the services, one concern per module.
export {
  freePort,
  startTestBackends,
  describeBackends,
  startPrivatePostgres,
  startPrivateNats,
  type TestBackendInfo,
  type PrivateServer,
} from './backends.js';
export {
  testBackends,
  hasServerPostgres,
  hasNatsServer,
  missingServer,
  missingServerBinary,
} from './available-servers.js';
export {
  createTestDatabase,
  createEmptyDatabase,
  createEmptyTestDatabase,
  type TestDatabase,
  type CreateTestDatabaseOptions,
} from './databases.js';
export { connectTestBus, createTestBusNamespace, NamespacedBus, InProcessHub, type TestBusNamespace } from './buses.js';
export {
  createTestIdentityProvider,
  TEST_OIDC_AUDIENCE,
  TEST_OIDC_ISSUER,
  type TestIdentityProvider,
  type TestTokenSpec,
} from './identity-provider.js';
export { appCaller, type AppCaller, type CallOptions, type CallResult, type HttpMethod } from './app-caller.js';
export { captureLogger, silentLogger } from './logging.js';
export { waitFor } from './waiting.js';
export { manualClock, type ManualClock } from './manual-clock.js';
export {
  fuzzAllRoutes,
  fuzzRunsPerRoute,
  FUZZ_SEED,
  listRoutes,
  requestArbitrary,
  checkRequest,
  checkResponseHeaders,
  type FuzzRoute,
} from './fuzz/fuzz-routes.js';
export { snapshotSchema } from './fuzz/snapshot.js';
export { arbitraryFor, mutate } from './fuzz/schema-arbitrary.js';
export { findUndocumentedOperations } from './openapi.js';
export { expectEachUnavailableFast } from './dependency-outage.js';
export { migrationsFolderUpTo } from './migrations.js';
export { runMigrateEntryOnEmptyDatabase, type MigratedEmptyDatabase } from './migrate-entry.js';
export { writeTestTlsFiles, type TestTlsFiles } from './tls-files.js';
export * from './metrics.js';
