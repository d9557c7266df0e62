// CPU limits as Kubernetes sets them (a pod's `resources.limits.cpu` is a CFS quota on its
// cgroup), for one process of a benchmark: `cpus` CPUs' worth of time per 100 ms period, however
// many cores its threads run on. Needs a writable cgroup v1 `cpu` hierarchy (root on this
// machine) or cgroup v2 with the cpu controller; `openCpuQuotas` resolves undefined elsewhere.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_MICROS = 100_000;

/** Where the groups can be made, and how their quota is written, or undefined. */
function findHierarchy() {
  const v1 = '/sys/fs/cgroup/cpu';
  if (existsSync(join(v1, 'cpu.cfs_quota_us')))
    return {
      root: v1,
      limit: (dir, cpus) => {
        writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_MICROS));
        writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(cpus * PERIOD_MICROS)));
      },
    };
  const v2 = '/sys/fs/cgroup';
  if (
    existsSync(join(v2, 'cgroup.controllers')) &&
    readFileSync(join(v2, 'cgroup.controllers'), 'utf8').includes('cpu')
  )
    return {
      root: v2,
      limit: (dir, cpus) => writeFileSync(join(dir, 'cpu.max'), `${Math.round(cpus * PERIOD_MICROS)} ${PERIOD_MICROS}`),
    };
  return undefined;
}

/**
 * One cgroup per entry of `cpuCounts` (e.g. [1, 2]), named after `prefix`.
 * Returns { place(pid, cpus), remove() } or undefined when cgroups cannot be made here.
 */
export function openCpuQuotas(prefix, cpuCounts) {
  const hierarchy = findHierarchy();
  if (!hierarchy) return undefined;
  const groups = new Map();
  try {
    for (const cpus of cpuCounts) {
      const dir = join(hierarchy.root, `${prefix}-${String(cpus).replace('.', '_')}cpu`);
      mkdirSync(dir, { recursive: true });
      hierarchy.limit(dir, cpus);
      groups.set(cpus, dir);
    }
  } catch {
    for (const dir of groups.values()) rmdirSync(dir);
    return undefined;
  }
  return {
    /** Moves process `pid` (every thread) under the quota of `cpus`. */
    place(pid, cpus) {
      writeFileSync(join(groups.get(cpus), 'cgroup.procs'), String(pid));
    },
    /** Moves `pid` back to the root group and removes the groups. */
    remove(pid) {
      if (pid !== undefined) writeFileSync(join(hierarchy.root, 'cgroup.procs'), String(pid));
      for (const dir of groups.values()) rmdirSync(dir);
    },
  };
}
