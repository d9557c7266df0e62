// The real verifier service as a child process, configured as in production
// (env from bench/lib/verifier-setup.mjs); prints `LISTENING <url>` once it listens.
import { createLogger, startTracing } from '@tessera/service-kit';
import { startVerifier } from '@tessera/verifier/server';
import { loadVerifierConfig } from '../../services/verifier/dist/config.js';
import { answerProfileCommands } from './profile-window.mjs';

const config = loadVerifierConfig({
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  MIGRATE_ON_START: 'true',
});
// As runServiceMain does: tracing (OTEL_* from the environment, off without an endpoint) before the service starts.
const tracing = startTracing({ service: 'verifier' });
const service = await startVerifier(config, createLogger({ name: 'verifier', level: config.LOG_LEVEL }));
// Per-phase CPU profiles on the benchmark's request (BENCH_PROFILE_DIR, IPC channel).
answerProfileCommands(process.env.BENCH_PROFILE_DIR);
process.stdout.write(`LISTENING ${service.url}\n`);
process.on('SIGTERM', () =>
  service
    .close()
    .then(() => tracing.shutdown())
    .then(() => process.exit(0)),
);
