import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { ErrorCode, EventDescriptor, RpcDescriptor } from '@tessera/contracts';
import {
  AppError,
  BusUnavailableError,
  callService,
  InProcessBus,
  InProcessHub,
  publishEvent,
  serveRequests,
  subscribeEvents,
  type MessageBus,
} from '../src/index.js';
import {
  captureLogger,
  connectTestBus,
  createTestBusNamespace,
  missingServer,
  silentLogger,
  waitFor,
} from '../src/testing/index.js';

const Req = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
const Res = Type.Object(
  { greeting: Type.String(), requestId: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** A descriptor as contracts declares them; GHOST_NOT_FOUND stands for a service's own code. */
function greetRpc(subject: string) {
  return {
    subject,
    queue: 'test',
    request: Req,
    reply: Res,
    failures: ['GHOST_NOT_FOUND' as ErrorCode],
    peer: 'the greeter',
  } satisfies RpcDescriptor;
}

/** The same contract over both transports: what passes here passes over NATS and in process. */
function contractSuite(label: string, connect: () => Promise<[MessageBus, MessageBus]>) {
  describe(label, () => {
    let client: MessageBus;
    let server: MessageBus;
    const subject = `test.v1.greet.${Math.random().toString(36).slice(2)}`;
    const rpc = greetRpc(subject);
    const logger = silentLogger();

    beforeAll(async () => {
      [client, server] = await connect();
      serveRequests(server, rpc, {
        logger,
        handler: async (request, context) => {
          if (request.name === 'ghost') throw new AppError(404, 'GHOST_NOT_FOUND', 'No such ghost.');
          if (request.name === 'undeclared') throw new AppError(409, 'SOMETHING_ELSE', 'Not in the contract.');
          if (request.name === 'bug') throw new Error('internal detail');
          if (request.name === 'breaks-reply') return { greeting: 42 } as never;
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
      callService(client, rpc, { name } as never, { requestId: 'req-42', ...(timeoutMs ? { timeoutMs } : {}) });

    it('answers a valid request and carries the request id', async () => {
      expect(await call('ada')).toEqual({ greeting: 'hello ada', requestId: 'req-42' });
    });

    it('answers a request that fails its schema with 400 VALIDATION_FAILED', async () => {
      await expect(call('')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      const raw = await client.request(subject, { nope: 1 });
      expect(raw).toMatchObject({ ok: false, error: { statusCode: 400, code: 'VALIDATION_FAILED' } });
    });

    it("passes a responder's AppError through with its status and code", async () => {
      await expect(call('ghost')).rejects.toMatchObject({
        statusCode: 404,
        code: 'GHOST_NOT_FOUND',
        message: 'No such ghost.',
      });
    });

    it('hides unexpected responder errors behind 500 INTERNAL on the wire, which the caller reports as 503', async () => {
      const raw = await client.request(subject, { name: 'bug' });
      expect(raw).toMatchObject({ ok: false, error: { statusCode: 500, code: 'INTERNAL' } });
      expect(JSON.stringify(raw)).not.toContain('internal detail');
      const error = await call('bug').catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect((error as Error).message).not.toContain('internal detail');
    });

    it('answers a failure code the descriptor does not declare as 500 INTERNAL, never leaking it', async () => {
      const raw = await client.request(subject, { name: 'undeclared' });
      expect(raw).toMatchObject({ ok: false, error: { statusCode: 500, code: 'INTERNAL' } });
      await expect(call('undeclared')).rejects.toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    });

    it('never sends a reply that breaks the reply schema', async () => {
      expect(await client.request(subject, { name: 'breaks-reply' })).toMatchObject({
        ok: false,
        error: { statusCode: 500, code: 'INTERNAL' },
      });
    });

    it('reports a peer reply that breaks the contract as 503 to the caller', async () => {
      const rogueSubject = `${subject}.rogue`;
      const stop = server.respond(rogueSubject, 'test', async () => ({ ok: true, data: { unexpected: true } }));
      const undeclared = server.respond(`${rogueSubject}.undeclared`, 'test', async () => ({
        ok: false,
        error: { statusCode: 409, code: 'SOMETHING_ELSE', message: 'x' },
      }));
      await server.ping();
      await expect(callService(client, greetRpc(rogueSubject), { name: 'x' })).rejects.toMatchObject({
        statusCode: 503,
        code: 'DEPENDENCY_UNAVAILABLE',
        message: expect.stringContaining('breaks the contract'),
      });
      await expect(callService(client, greetRpc(`${rogueSubject}.undeclared`), { name: 'x' })).rejects.toMatchObject({
        statusCode: 503,
      });
      stop();
      undeclared();
    });

    it('turns a timeout into 503 DEPENDENCY_UNAVAILABLE', async () => {
      await expect(call('slow', 100)).rejects.toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    });

    it('turns "no responders" into 503 quickly, never a hang', async () => {
      const started = Date.now();
      const error = await callService(client, greetRpc(`${subject}.nobody`), { name: 'x' }).catch((e: unknown) => e);
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

    it('validates events: a publisher cannot send a payload that breaks the schema; subscribers drop one sent raw', async () => {
      const event = {
        subject: `${subject}.typed-events`,
        payload: Type.Object({ n: Type.Integer() }),
      } satisfies EventDescriptor;
      const logs = captureLogger('kit-test', 'warn');
      const seen: number[] = [];
      subscribeEvents(client, event, { logger: logs.logger, handler: (payload) => void seen.push(payload.n) });
      await client.ping();
      expect(() => publishEvent(server, event, { n: 'one' } as never)).toThrow(/breaks its schema/);
      server.publish(event.subject, { n: 'raw' });
      publishEvent(server, event, { n: 7 });
      await waitFor(async () => seen.length === 1, 2000, 'the valid event');
      expect(seen).toEqual([7]);
      await waitFor(async () => logs.text().includes('dropped an event that breaks its schema'), 2000, 'the warning');
    });
  });
}

contractSuite('in-process bus', async () => {
  const hub = new InProcessHub();
  return [new InProcessBus(hub), new InProcessBus(hub)];
});

describe.skipIf(missingServer('nats', 'NATS bus'))('NATS bus', () => {
  contractSuite('over a real NATS server', async () => [
    await connectTestBus('client'),
    await connectTestBus('server'),
  ]);
});

describe('test bus namespaces', () => {
  it('keep the same subject of two test files apart while one namespace reaches itself', async () => {
    const hub = new InProcessHub();
    const first = createTestBusNamespace(hub);
    const second = createTestBusNamespace(hub);
    const [a, b, c] = [await first.connect('a'), await first.connect('b'), await second.connect('c')];
    a.respond('shared.subject', 'q', async () => 'first');
    // Over NATS the subscription reaches the server asynchronously: a round trip on `a` orders it before b's request.
    await a.ping();
    await expect(b.request('shared.subject', {})).resolves.toBe('first');
    await expect(c.request('shared.subject', {})).rejects.toBeInstanceOf(BusUnavailableError);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
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
