// In-process rates: how many times a step runs per second on this process's one core,
// after a short warm-up (so the JIT has compiled it), with nothing else measured.

/**
 * Runs `step(i)` synchronously for `seconds` after a warm-up; returns { perSecond, cpuMicros }:
 * calls per second of wall time, and this process's CPU time per call (µs), which other work on a
 * shared machine disturbs much less than the rate.
 */
export function measureLoopCost(seconds, step) {
  const run = (ms) => {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const until = started + ms;
    let count = 0;
    while (performance.now() < until) {
      for (let batch = 0; batch < 16; batch += 1) step(count++);
    }
    const cpu = process.cpuUsage(cpuBefore);
    return { perSecond: count / ((performance.now() - started) / 1000), cpuMicros: (cpu.user + cpu.system) / count };
  };
  run(Math.min(1000, seconds * 200));
  return run(seconds * 1000);
}

/** Runs `step(i)` synchronously for `seconds` after a warm-up; returns calls per second. */
export function measureLoop(seconds, step) {
  return measureLoopCost(seconds, step).perSecond;
}

/** Awaits `step(i)` one after another for `seconds` after a warm-up; returns calls per second. */
export async function measureAsyncLoop(seconds, step) {
  const run = async (ms) => {
    const started = performance.now();
    const until = started + ms;
    let count = 0;
    while (performance.now() < until) await step(count++);
    return count / ((performance.now() - started) / 1000);
  };
  await run(Math.min(1000, seconds * 200));
  return run(seconds * 1000);
}
