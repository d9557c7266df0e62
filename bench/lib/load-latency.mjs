// autocannon with every response time recorded, for percentiles autocannon does not
// report (p95) and for counting answers by status class.
import autocannon from 'autocannon';

/** The q-quantile (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Drives `url` for `durationSeconds` (or `amount` requests) and returns requests/s of
 * `expectStatus` answers, latency percentiles in ms (p50, p95, p99) and the number of
 * other answers, errors and timeouts. `requests` is autocannon's request sequence
 * (default: one request built by `pickRequest()`).
 */
export async function runTimedLoad({
  url,
  connections,
  durationSeconds,
  amount,
  pickRequest,
  requests,
  expectStatus = 200,
  warmupSeconds = 0,
}) {
  const times = [];
  const byStatus = {};
  let recording = warmupSeconds === 0;
  const started = performance.now();
  const instance = autocannon({
    url,
    connections,
    ...(amount ? { amount } : { duration: durationSeconds + warmupSeconds }),
    requests: requests ?? [{ setupRequest: (request) => ({ ...request, ...pickRequest() }) }],
  });
  let windowStart = started;
  let counted = 0;
  if (!recording) {
    setTimeout(() => {
      recording = true;
      windowStart = performance.now();
    }, warmupSeconds * 1000).unref();
  }
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (!recording) return;
    byStatus[statusCode] = (byStatus[statusCode] ?? 0) + 1;
    if (statusCode === expectStatus) {
      counted += 1;
      times.push(responseTime);
    }
  });
  const result = await instance;
  const seconds = (performance.now() - windowStart) / 1000;
  times.sort((a, b) => a - b);
  const unexpected = Object.entries(byStatus)
    .filter(([code]) => Number(code) !== expectStatus)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requestsPerSecond: counted / seconds,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    p99Ms: quantile(times, 0.99),
    total: counted,
    byStatus,
    serverErrors: Object.entries(byStatus)
      .filter(([code]) => Number(code) >= 500)
      .reduce((sum, [, n]) => sum + n, 0),
    /** Connection errors and timeouts over the whole run (warm-up included). */
    socketErrors: result.errors + result.timeouts,
    errors: result.errors + result.timeouts + unexpected,
  };
}
