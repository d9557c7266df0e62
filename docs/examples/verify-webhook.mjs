// A relying party's webhook endpoint for Tessera (Standard Webhooks signatures).
// Run: WEBHOOK_SECRET=whsec_… PORT=8080 node verify-webhook.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

export function verifyWebhook(headers, body, secret, nowMs = Date.now()) {
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures = '' } = headers;
  if (!id || !(Math.abs(nowMs / 1000 - Number(timestamp)) <= 300)) return false; // missing, stale or replayed
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8'); // the exact bytes that were signed
      if (!verifyWebhook(request.headers, body, process.env.WEBHOOK_SECRET)) return response.writeHead(401).end();
      const event = JSON.parse(body); // { type, id, sessionId, verifierId, state, occurredAt }; deduplicate on id
      console.log(event.type, event.sessionId); // then read the result with your token
      response.writeHead(204).end();
    });
  }).listen(Number(process.env.PORT ?? 8080));
}
