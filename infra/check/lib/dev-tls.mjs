// The committed development CA and server certificates (infra/dev-tls/) that compose and the
// dev overlay serve and verify: each server certificate chains to ca.crt, matches its key,
// names every host the services and the host machine use, and stays valid for a while yet,
// so an expiry or a regenerated file that misses a name fails here, not in a developer's
// `docker compose up`.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './util.mjs';

export const DEV_TLS_DIR = join(REPO_ROOT, 'infra', 'dev-tls');
const SERVERS = {
  postgres: ['postgres', 'localhost'],
  nats: ['nats', 'nats.tessera-dev.svc.cluster.local', 'localhost'],
};
const MIN_REMAINING_DAYS = 365;

/** Problems of infra/dev-tls/ at time `now`. */
export function devTlsRules(now = new Date()) {
  const problems = [];
  const want = (ok, message) => ok || problems.push(message);
  const ca = new X509Certificate(readFileSync(join(DEV_TLS_DIR, 'ca.crt')));
  want(ca.ca && ca.subject.includes('INSECURE'), 'ca.crt: must be a CA whose name says INSECURE');
  const horizon = new Date(now.getTime() + MIN_REMAINING_DAYS * 86_400_000);
  const lasts = (cert, file) =>
    want(
      new Date(cert.validTo) > horizon,
      `${file}: expires ${cert.validTo}, within ${MIN_REMAINING_DAYS} days: sh infra/dev-tls/generate.sh`,
    );
  lasts(ca, 'ca.crt');
  for (const [server, hosts] of Object.entries(SERVERS)) {
    const cert = new X509Certificate(readFileSync(join(DEV_TLS_DIR, server, 'tls.crt')));
    const key = createPrivateKey(readFileSync(join(DEV_TLS_DIR, server, 'tls.key')));
    want(cert.checkIssued(ca) && cert.verify(ca.publicKey), `${server}/tls.crt: must be signed by ca.crt`);
    want(cert.checkPrivateKey(key), `${server}/tls.crt: does not match ${server}/tls.key`);
    for (const host of hosts) want(cert.checkHost(host) === host, `${server}/tls.crt: must name ${host}`);
    want(cert.checkIP('127.0.0.1') === '127.0.0.1', `${server}/tls.crt: must name 127.0.0.1`);
    lasts(cert, `${server}/tls.crt`);
  }
  return problems;
}
