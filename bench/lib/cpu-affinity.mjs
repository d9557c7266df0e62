// CPU limits as pinning (a process's CPU affinity, `taskset`): `cpus` of the machine's cores,
// 0..cpus-1, for every thread of one process of a benchmark — the event loop, libuv's thread
// pool (asynchronous crypto), V8's helpers. This is what a pod with whole CPUs gets under the
// kubelet's static CPU manager (Guaranteed QoS: an exclusive cpuset); a plain `limits.cpu` is a
// CFS quota instead (bench/lib/cpu-quota.mjs). Needs no privileges (a process may pin its own
// children); `openCpuAffinities` resolves undefined without `taskset` or with too few cores.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** `taskset -a -p -c <list> <pid>`: every existing thread; threads made later inherit their creator's mask. */
function pin(pid, list) {
  const result = spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset -c ${list} ${pid} failed: ${result.stderr || result.error}`);
}

/**
 * Affinities for each entry of `cpuCounts` (e.g. [1, 2]: cores 0, and cores 0-1).
 * Returns { place(pid, cpus), remove(pid) } or undefined when they cannot be set here.
 */
export function openCpuAffinities(cpuCounts) {
  const cores = availableParallelism();
  if (Math.max(...cpuCounts) > cores) return undefined;
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
  if (probe.status !== 0) return undefined;
  const listOf = (cpus) => (cpus === 1 ? '0' : `0-${cpus - 1}`);
  return {
    /** Pins every thread of process `pid` to the first `cpus` cores. */
    place(pid, cpus) {
      pin(pid, listOf(cpus));
    },
    /** Lets `pid` run on every core again. */
    remove(pid) {
      if (pid !== undefined) pin(pid, `0-${cores - 1}`);
    },
  };
}
