// `npm run demo -- --web`: the reference relying-party page against running services
// (start them with `npm start` in another terminal). Sets up a relying party and the
// demo wallet, then serves the page until Ctrl-C.
import { waitUntilUp } from '../http.js';
import { bold, cyan, dim, red } from '../print.js';
import { dataDirFromEnv, serviceUrlsFromEnv } from '../services.js';
import { startWebDemo } from './start-web-demo.js';

async function main(): Promise<void> {
  const urls = serviceUrlsFromEnv();
  await Promise.all(Object.values(urls).map((base) => waitUntilUp(`${base}/health/ready`)));
  const port = Number(process.env.WEB_DEMO_PORT ?? 3010);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`WEB_DEMO_PORT must be a port number, not ${process.env.WEB_DEMO_PORT}`);
  const extraOrigins = (process.env.WEB_DEMO_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const demo = await startWebDemo({
    urls,
    dataDir: dataDirFromEnv(),
    port,
    extraOrigins,
    ...(process.env.WEB_DEMO_HOST ? { host: process.env.WEB_DEMO_HOST } : {}),
  });
  process.stdout.write(`\n${bold('The reference relying-party page is running:')} ${cyan(demo.url)}\n`);
  process.stdout.write(
    `${dim(`organisation ${demo.relyingParty.orgId}, verifier ${demo.relyingParty.verifierId}, ecosystem ${demo.relyingParty.ecosystemId}`)}\n`,
  );
  process.stdout.write(`${dim('Ctrl-C stops it.')}\n`);
  const stop = () => void demo.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`\n${red('demo web page failed:')} ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
