import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { AppError, BusUnavailableError, callService, InProcessBus, InProcessHub, serveRequests, type MessageBus } from '../src/index.js';
import { connectTestBus, missingServer, silentLogger } from '../src/testing/index.js';

const Req = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
const Res = Type.Object({ greeting: Type.String() });

/** The same contract over both transports: what passes here passes over NATS and in process. */
function contractSuite(label: string, connect: () => Promise<[MessageBus, MessageBus]>) {
  describe(label, () => {
    let client: MessageBus;
    let server: MessageBus;
    const subject = `test.v1.greet.${Math.random().toString(36).slice(2)}`;
    const logger = silentLogger();

    beforeAll(async () => {
      [client, server] = await connect();
      serveRequests(server, {
        subject,
        queue: 'test',
        requestSchema: Req,
        logger,
        handler: async (request, context) => {
          if (request.name === 'ghost') throw new AppError(404, 'GHOST_NOT_FOUND', 'No such ghost.');
          if (request.name === 'bug') throw new Error('internal detail');
          if (request.name === 'slow') await new Promise((r) => setTimeout(r, 500));
          return { greeting: `hello ${request.name}`, requestId: context.requestId };
        },
      });
      await server.ping();
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    const call = (name: unknown, timeoutMs?: number) =>
      callService(client, { subject, requestSchema: Req, replyDataSchema: Res, request: { name } as never, peer: 'the greeter', requestId: 'req-42', ...(timeoutMs ? { timeoutMs } : {}) });

    it('answers a valid request and carries the request id', async () => {
      expect(await call('ada')).toEqual({ greeting: 'hello ada', requestId: 'req-42' });
    });

    it('answers a request that fails its schema with 400 VALIDATION_FAILED', async () => {
      await expect(call('')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      const raw = await client.request(subject, { nope: 1 });
      expect(raw).toMatchObject({ ok: false, error: { statusCode: 400, code: 'VALIDATION_FAILED' } });
    });

    it("passes a responder's AppError through with its status and code", async () => {
      await expect(call('ghost')).rejects.toMatchObject({ statusCode: 404, code: 'GHOST_NOT_FOUND', message: 'No such ghost.' });
    });

    it('hides unexpected responder errors behind 500 INTERNAL', async () => {
      const error = await call('bug').catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 500, code: 'INTERNAL' });
      expect((error as Error).message).not.toContain('internal detail');
    });

    it('turns a timeout into 503 DEPENDENCY_UNAVAILABLE', async () => {
      await expect(call('slow', 100)).rejects.toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    });

    it('turns "no responders" into 503 quickly, never a hang', async () => {
      const started = Date.now();
      const error = await callService(client, { subject: `${subject}.nobody`, requestSchema: Req, replyDataSchema: Res, request: { name: 'x' }, peer: 'nobody' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(2500);
    });

    it('delivers events to every subscriber and one member per queue group', async () => {
      const events = `${subject}.events`;
      const seen: string[] = [];
      client.subscribe(events, (payload) => void seen.push(`plain:${(payload as { n: number }).n}`));
      client.subscribe(events, (payload) => void seen.push(`q1:${(payload as { n: number }).n}`), { queue: 'q' });
      server.subscribe(events, (payload) => void seen.push(`q2:${(payload as { n: number }).n}`), { queue: 'q' });
      await client.ping();
      await server.ping();
      for (let n = 0; n < 10; n++) server.publish(events, { n });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen.filter((s) => s.startsWith('plain:'))).toHaveLength(10);
      expect(seen.filter((s) => s.startsWith('q'))).toHaveLength(10);
    });
  });
}

contractSuite('in-process bus', async () => {
  const hub = new InProcessHub();
  return [new InProcessBus(hub), new InProcessBus(hub)];
});

describe.skipIf(missingServer('nats', 'NATS bus'))('NATS bus', () => {
  contractSuite('over a real NATS server', async () => [await connectTestBus('client'), await connectTestBus('server')]);
});

describe('in-process bus isolation', () => {
  it('keeps hubs apart and refuses requests after close', async () => {
    const a = new InProcessBus(new InProcessHub());
    const b = new InProcessBus(new InProcessHub());
    b.respond('x', 'q', async () => 'hi');
    await expect(a.request('x', {})).rejects.toBeInstanceOf(BusUnavailableError);
    await b.close();
    await expect(b.request('x', {})).rejects.toMatchObject({ reason: 'closed' });
  });
});
