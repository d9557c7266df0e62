// Drives an HTTP server with autocannon through "flows": a fixed sequence of requests
// that each connection repeats, every step built from what the previous answers said
// (autocannon's per-connection context) and every answer checked. autocannon keeps the
// load generator cheap (its own HTTP/1.1 client, keep-alive, no per-request promises),
// which matters on a 2-core machine where it shares a core with PostgreSQL.
import autocannon from 'autocannon';

/**
 * @typedef {object} FlowStep
 * @property {string} name what the step is, for failure messages
 * @property {(context: object) => ({ method: string, path: string, headers?: object, body?: string } | undefined)} request
 *   the request to send; undefined only when an earlier step of this flow failed
 * @property {(status: number, body: string, context: object) => (string | undefined)} check
 *   undefined when the answer is right (and may store what later steps need in `context`), else why not
 */

/**
 * Runs `steps` as flows over `connections` connections until `flows` flows were sent
 * (rounded up to a multiple of `connections`, so every connection ends on a whole flow)
 * or for `durationSeconds`. A flow is complete when its last step's check passes; a
 * failed check ends that flow (the connection starts a new one) and is counted.
 * @returns {Promise<{ completed: number, started: number, failures: number, samples: string[], seconds: number, perSecond: number, latencyP99Ms: number, loadGeneratorCpu: number }>}
 */
export async function runFlows({ url, connections, steps, flows, durationSeconds }) {
  const failed = Symbol('failed');
  let completed = 0;
  let lastResponseAt = 0;
  let failures = 0;
  /** Distinct reasons (the first 5) and how often each came. */
  const reasons = new Map();
  const note = (why, count = 1) => {
    if (reasons.has(why) || reasons.size < 5) reasons.set(why, (reasons.get(why) ?? 0) + count);
  };
  const fail = (context, why) => {
    context[failed] = true;
    failures += 1;
    note(why);
  };
  const requests = steps.map((step, index) => ({
    setupRequest: (request, context) => {
      // autocannon hands every flow a fresh context (step 0 after the last step or a failure).
      if (context[failed]) return undefined;
      const next = step.request(context);
      if (next) return { ...request, ...next };
      // Never for step 0 (autocannon cannot skip the first request of a flow).
      fail(context, `${step.name}: nothing to send`);
      return undefined;
    },
    onResponse: (status, body, context) => {
      lastResponseAt = performance.now();
      if (context[failed]) return;
      let why;
      try {
        why = step.check(status, body, context);
      } catch (error) {
        why = `${error}`;
      }
      if (why !== undefined) fail(context, `${step.name}: ${why}`);
      else if (index === steps.length - 1) completed += 1;
    },
  }));
  const perConnection = flows ? Math.ceil(flows / connections) : 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    timeout: 30,
    // autocannon ends a run on its next sample tick after the last response: tick often, and
    // time the run to its last response, not to autocannon's return.
    sampleInt: 100,
    ...(flows ? { amount: perConnection * connections * steps.length } : { duration: durationSeconds }),
    requests,
  });
  const seconds = ((lastResponseAt || performance.now()) - started) / 1000;
  // The load generator's own CPU (one core = 1): it shares the machine with the server.
  const cpu = process.cpuUsage(cpuBefore);
  const loadGeneratorCpu = (cpu.user + cpu.system) / 1e6 / ((performance.now() - started) / 1000);
  // Connection errors and timeouts are failures too (they never reach onResponse).
  const transportErrors = result.errors + result.timeouts;
  if (transportErrors > 0) note(`${result.errors} connection errors, ${result.timeouts} timeouts`, transportErrors);
  return {
    completed,
    started: flows ? perConnection * connections : completed + failures,
    failures: failures + transportErrors,
    samples: [...reasons].map(([why, count]) => `${count}× ${why}`),
    seconds,
    perSecond: completed / seconds,
    latencyP99Ms: result.latency.p99,
    loadGeneratorCpu,
  };
}
