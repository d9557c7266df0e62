import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCertificateAuthority, type CertificateAuthorityPem } from './certificate-authority.js';

/**
 * Development mode only: a CA generated on first use under `<dataDir>/<directory>/`
 * (`certificate.pem`, and `private-key.pem` with mode 0600), so restarts reuse it, as
 * the development OIDC key is kept. Production configuration provides its CA itself.
 */
export async function ensureDevCertificateAuthority(
  dataDir: string,
  options: { directory: string; commonName: string; now: Date },
): Promise<CertificateAuthorityPem> {
  const directory = join(dataDir, options.directory);
  const certificatePath = join(directory, 'certificate.pem');
  const keyPath = join(directory, 'private-key.pem');
  if (!existsSync(certificatePath) || !existsSync(keyPath)) {
    const generated = await generateCertificateAuthority({ now: options.now, commonName: options.commonName });
    mkdirSync(directory, { recursive: true });
    // The key first: a certificate never stands without its key.
    writeFileSync(keyPath, generated.privateKeyPem, { mode: 0o600 });
    writeFileSync(certificatePath, generated.certificatePem);
  }
  return { certificatePem: readFileSync(certificatePath, 'utf8'), privateKeyPem: readFileSync(keyPath, 'utf8') };
}
