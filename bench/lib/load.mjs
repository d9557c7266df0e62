import autocannon from 'autocannon';

/**
 * Drives `url` with autocannon and returns requests/s and latency percentiles.
 * `pickPath` chooses each request's path (and optional headers) at random.
 */
export async function runLoad({ url, connections, durationSeconds, amount, pickRequest, expectStatus }) {
  const result = await autocannon({
    url,
    connections,
    ...(amount ? { amount } : { duration: durationSeconds }),
    requests: [{ setupRequest: (request) => ({ ...request, ...pickRequest() }) }],
  });
  const statusCount = result.statusCodeStats ?? {};
  const unexpected = Object.entries(statusCount)
    .filter(([code]) => Number(code) !== expectStatus)
    .reduce((sum, [, stats]) => sum + stats.count, 0);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p97_5Ms: result.latency.p97_5,
    p50Ms: result.latency.p50,
    total: result.requests.total,
    errors: result.errors + result.timeouts + unexpected,
  };
}
