// Baseline for request/reply over NATS: a responder in its own process that answers
// every request with a reply envelope around its payload, and does nothing else.
import { createLogger, NatsBus } from '@tessera/service-kit';

const bus = await NatsBus.connect({
  url: process.env.NATS_URL,
  name: 'bench-echo',
  logger: createLogger({ name: 'echo', level: 'warn' }),
});
bus.respond('bench.v1.echo', 'bench', async (payload) => ({ ok: true, data: payload }));
await bus.ping();
process.stdout.write('LISTENING nats://echo\n');
process.on('SIGTERM', () => bus.close().then(() => process.exit(0)));
