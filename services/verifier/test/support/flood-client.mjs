// A flood of HTTP requests from one client, run as its own process so the load it
// makes never shares an event loop with the servers or with the test's latency probes.
//   node flood-client.mjs '{"ports":[…],"path":"/…","concurrency":300,"durationMs":20000,"headers":{}}'
// Prints, once done, one JSON line: { byPort: { <port>: { <status>: n } }, admittedPerSecond: [n, …] }.
import http from 'node:http';

const { ports, path, concurrency, durationMs, headers = {} } = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const byPort = Object.fromEntries(ports.map((port) => [port, {}]));
const started = Date.now();
const deadline = started + durationMs;
// Requests answered with anything but 429, per second of the flood: what the limit let through.
const admittedPerSecond = Array.from({ length: Math.ceil(durationMs / 1000) + 1 }, () => 0);
let next = 0;

function send(port) {
  return new Promise((resolve) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.statusCode)));
      response.on('error', () => resolve('error'));
    });
    request.on('error', () => resolve('error'));
    request.end();
  });
}

async function loop() {
  while (Date.now() < deadline) {
    const port = ports[next++ % ports.length];
    const status = await send(port);
    byPort[port][status] = (byPort[port][status] ?? 0) + 1;
    if (status !== '429') admittedPerSecond[Math.floor((Date.now() - started) / 1000)] += 1;
  }
}

await Promise.all(Array.from({ length: concurrency }, loop));
agent.destroy();
process.stdout.write(`${JSON.stringify({ byPort, admittedPerSecond })}\n`);
