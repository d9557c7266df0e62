import { readFileSync } from 'node:fs';

/** user and system time of /proc/<path>/stat in microseconds (clock ticks of 10 ms); undefined when unreadable. */
function readTimes(path) {
  try {
    const text = readFileSync(`/proc/${path}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // Counted from `state` = 0 (proc(5)): utime 11, stime 12.
    return { user: (Number(fields[11]) * 1e6) / 100, system: (Number(fields[12]) * 1e6) / 100 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used, all its threads, in microseconds; undefined off Linux. */
export function cpuMicros(pid) {
  const times = readTimes(pid);
  return times && times.user + times.system;
}

/**
 * A Node.js process's CPU time split by thread, in microseconds: `main` (the thread that runs
 * JavaScript and the event loop: its tid is the pid) as `mainUser` and `mainSystem` (the kernel's
 * work for it: socket reads and writes, epoll), and `total` (every thread: also the libuv thread
 * pool that runs asynchronous crypto jobs, and V8's compiler and GC helpers). Undefined off Linux.
 */
export function threadCpuMicros(pid) {
  const total = readTimes(pid);
  const main = readTimes(`${pid}/task/${pid}`);
  if (!total || !main) return undefined;
  return { total: total.user + total.system, mainUser: main.user, mainSystem: main.system };
}
