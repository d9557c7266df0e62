// CPU profiles of a server child covering one measured phase only. `--cpu-prof` (child-server.mjs)
// profiles the child's whole life, which for a phase run alone still mixes in start-up and the
// preparation before the clock (creating the sessions a response phase answers). The benchmark asks
// the child over its IPC channel to start and stop a V8 profile around the measured window; the
// child writes it as <dir>/<name>.cpuprofile, readable like any --cpu-prof file.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** In the child: answers `profile-start` / `profile-stop` messages, writing profiles into `dir`. */
export function answerProfileCommands(dir) {
  if (!dir || typeof process.send !== 'function') return;
  const session = new Session();
  session.connect();
  // The benchmark went away without stopping this child: do not outlive it.
  process.once('disconnect', () => process.exit(0));
  process.on('message', async (message) => {
    try {
      if (message?.type === 'profile-start') {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        process.send({ type: 'profile-started', name: message.name });
      } else if (message?.type === 'profile-stop') {
        const { profile } = await session.post('Profiler.stop');
        const path = join(dir, `${message.name}.cpuprofile`);
        writeFileSync(path, JSON.stringify(profile));
        process.send({ type: 'profile-written', name: message.name, path });
      }
    } catch (error) {
      process.send({ type: 'profile-failed', name: message?.name, message: String(error) });
    }
  });
}

/** The child's next message of `type` for profile `name`. */
function replyOf(child, type, name) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message?.name !== name) return;
      if (message.type === 'profile-failed') reject(new Error(`profile ${name}: ${message.message}`));
      else if (message.type === type) resolve(message);
      else return;
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
  });
}

/**
 * In the benchmark: starts a profile named `name` in the child (a no-op without BENCH_PROFILE_DIR
 * or an IPC channel) and resolves with `stop()`, which resolves with the written file's path.
 */
export async function startProfileWindow(child, name) {
  if (!process.env.BENCH_PROFILE_DIR || !child.connected) return { stop: async () => undefined };
  const started = replyOf(child, 'profile-started', name);
  child.send({ type: 'profile-start', name });
  await started;
  return {
    async stop() {
      const written = replyOf(child, 'profile-written', name);
      child.send({ type: 'profile-stop', name });
      return (await written).path;
    },
  };
}
