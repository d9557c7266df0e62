import autocannon from 'autocannon';
import { residentBytes } from './infra.mjs';

/**
 * Drives a child server for `seconds` at `connections` with requests from
 * `pickRequest`, sampling its resident memory after a warm-up and at the end.
 * Returns the 5xx count, other errors, requests/s and the RSS growth ratio.
 */
export async function runSoak({ server, seconds, connections, pickRequest, warmupSeconds = 10 }) {
  const run = autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, ...pickRequest() }) }],
  });
  await new Promise((resolve) => setTimeout(resolve, Math.min(warmupSeconds, seconds / 2) * 1000));
  const rssStart = await residentBytes(server.child.pid);
  const result = await run;
  const rssEnd = await residentBytes(server.child.pid);
  const stats = result.statusCodeStats ?? {};
  const count = (predicate) =>
    Object.entries(stats)
      .filter(([code]) => predicate(Number(code)))
      .reduce((sum, [, s]) => sum + s.count, 0);
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    serverErrors: count((code) => code >= 500),
    statusCounts: Object.fromEntries(Object.entries(stats).map(([code, s]) => [code, s.count])),
    transportErrors: result.errors + result.timeouts,
    rssStart,
    rssEnd,
    rssRatio: rssEnd / rssStart,
  };
}

/** The two rows every soak reports: zero 5xx, RSS growth under 1.5x. */
export function soakRows(label, soak, seconds, connections) {
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  return [
    {
      metric: `${label}: 5xx in a ${seconds} s soak at ${connections} connections (${soak.total} requests, ${soak.requestsPerSecond.toFixed(0)} req/s)`,
      value: String(soak.serverErrors),
      baseline: '0',
      ratio: soak.serverErrors,
      target: '0',
      pass: soak.serverErrors === 0 && soak.transportErrors === 0,
    },
    {
      metric: `${label}: resident memory, end of soak vs after warm-up`,
      value: mb(soak.rssEnd),
      baseline: mb(soak.rssStart),
      ratio: soak.rssRatio,
      target: '< 1.5',
      pass: soak.rssRatio < 1.5,
    },
  ];
}
