// Starts a server script as a child process and resolves with its URL once it prints
// `LISTENING <url>`, so the load generator and the server use separate cores.
import { spawn } from 'node:child_process';

/**
 * `ipc: true` opens a message channel to the child (`child.send`), for servers that
 * take commands from the benchmark, such as the verifier's per-phase CPU profiles.
 */
export function startChildServer(script, env = {}, { ipc = false } = {}) {
  return new Promise((resolve, reject) => {
    // BENCH_PROFILE_DIR=<dir> writes a CPU profile of each server, to find what is slow.
    const profile = process.env.BENCH_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const child = spawn(process.execPath, [...profile, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])],
    });
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 60000);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = /LISTENING (\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1].replace('//localhost:', '//127.0.0.1:'),
          child,
          stop: () =>
            new Promise((done) => {
              child.once('exit', done);
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
