export { clientAddressKey } from './client-address-key.js';
export { postgresRateLimitWindows, RATE_LIMIT_WINDOWS_TABLE } from './postgres-rate-limit-windows.js';
export { rateLimitWindowsTable } from './rate-limit-windows-table.js';
export { rateLimitConfigProperties } from './rate-limit-config.js';
export { createRateLimitMetrics, type RateLimitMetrics } from './rate-limit-metrics.js';
export type { RateLimitDelta, RateLimitTotal, RateLimitWindowStore } from './rate-limit-window-store.js';
export {
  rateLimitedError,
  registerSharedRateLimit,
  sharedRateLimitHook,
  type SharedRateLimitOptions,
} from './register-shared-rate-limit.js';
export { SharedRateLimitCounts, type SharedRateLimitCountsOptions } from './shared-rate-limit-counts.js';
