import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueDemoCredential } from '../demo-credential.js';
import { createDemoIssuer } from '../issuer.js';
import { issueDemoMdl } from '../mdl.js';
import { setUpRelyingParty, type DemoRelyingParty } from '../relying-party.js';
import { statusListApiKey, type ServiceUrls } from '../services.js';
import { publishStatusList } from '../status-list.js';
import { BrowserSessions } from './browser-sessions.js';
import { DemoWallet } from './demo-wallet.js';
import { handlePageRequests } from './page-server.js';
import { VerifierApi } from './verifier-api.js';

/** The demo credential's entry in the issuer's status list. */
const STATUS_INDEX = 3;

export interface WebDemoOptions {
  urls: ServiceUrls;
  /** `npm start`'s data directory: its development key mints the relying party's tokens. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Extra origins the page is reached at (e.g. an https tunnel); http://localhost:<port> and http://127.0.0.1:<port> always are. */
  extraOrigins?: string[];
}

export interface WebDemo {
  /** The page: http://localhost:<port>/ */
  url: string;
  relyingParty: DemoRelyingParty;
  /** The bundled demo wallet (and its issuer's status list) the page's demo-only controls use. */
  demoWallet: DemoWallet;
  close(): Promise<void>;
}

/**
 * Sets up a relying party (organisation, ecosystem intent, verifier, template, trust
 * in the demo issuer), gives the demo wallet its credentials (an SD-JWT VC and an
 * mDL of the same issuer), and serves the page.
 */
export async function startWebDemo(options: WebDemoOptions): Promise<WebDemo> {
  const { urls, dataDir } = options;
  const issuer = await createDemoIssuer();
  const statusList = await publishStatusList({
    statusListUrl: urls.statusList,
    apiKey: statusListApiKey(dataDir),
    issuer,
  });
  const relyingParty = await setUpRelyingParty({
    urls,
    dataDir,
    run: randomBytes(3).toString('hex'),
    issuerCaPem: issuer.caPem,
    issuerName: issuer.name,
  });
  const held = await issueDemoCredential({ issuer, status: { idx: STATUS_INDEX, uri: statusList.uri } });
  const platformCa = await fetch(`${urls.verifier}/oid4vp/platform-ca.pem`);
  if (!platformCa.ok) throw new Error(`the verifier's platform CA answered ${platformCa.status}`);
  const demoWallet = new DemoWallet(
    held,
    await platformCa.text(),
    statusList,
    STATUS_INDEX,
    await issueDemoMdl(issuer),
  );

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  server.on(
    'request',
    handlePageRequests({
      verifier: new VerifierApi(urls.verifier, relyingParty),
      browsers: new BrowserSessions(),
      allowedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`, ...(options.extraOrigins ?? [])],
      demoWallet,
    }),
  );
  return {
    url: `http://localhost:${port}/`,
    relyingParty,
    demoWallet,
    close: () =>
      new Promise<void>((resolve) => {
        // Open event streams would hold close() until their sessions end.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
