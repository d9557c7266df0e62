import { createServer, type IncomingHttpHeaders } from 'node:http';

/** A relying party's webhook endpoint: answers 200 and keeps what it was sent. */
export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body: JSON.parse(body) as Record<string, unknown> });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/hooks/tessera`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
