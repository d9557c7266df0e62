// Makes a trust-list CA for production configuration (README, The signed trust list):
//   node dist/generate-trust-list-ca.js <directory> [common name]
// writes <directory>/tls.crt (the CA certificate) and <directory>/tls.key (its PKCS#8
// key, mode 0600), the layout of a Kubernetes TLS Secret:
//   kubectl -n tessera create secret tls ecosystem-trust-list-ca --cert=<dir>/tls.crt --key=<dir>/tls.key
// Nothing is printed but the paths. Keep the key offline or in a secret store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCertificateAuthority } from '@tessera/service-kit/x509';

const [directory, commonName = 'Tessera Trust List CA'] = process.argv.slice(2);
if (!directory) {
  process.stderr.write('usage: node dist/generate-trust-list-ca.js <directory> [common name]\n');
  process.exit(2);
}
const ca = await generateCertificateAuthority({ now: new Date(), commonName });
mkdirSync(directory, { recursive: true });
writeFileSync(join(directory, 'tls.key'), ca.privateKeyPem, { mode: 0o600, flag: 'wx' });
writeFileSync(join(directory, 'tls.crt'), ca.certificatePem, { flag: 'wx' });
process.stdout.write(`${join(directory, 'tls.crt')}\n${join(directory, 'tls.key')}\n`);
