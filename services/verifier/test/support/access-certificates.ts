import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { privateKeyPem, type Issued } from './pki.js';

// Access certificates (WRPAC) as a registrar-approved CA issues them, made with tools that share
// nothing with the service: OpenSSL certifies a CSR the service made (`certifyRequest`), and
// @peculiar/x509 issues a leaf with the EN 319 412-1 subject for an import with its key.

/** X.520 organizationIdentifier. */
const ORGANIZATION_IDENTIFIER = '2.5.4.97';
const DAY = 86_400_000;

/**
 * The CA's answer to a certificate signing request, by `openssl x509 -req`: a leaf (not a CA,
 * digitalSignature) with the request's subject, key and SANs, signed by `issuer`. OpenSSL also
 * checks the request's self-signature first, as a CA does.
 */
export async function certifyRequest(options: {
  issuer: Issued;
  csrPem: string;
  days?: number;
  notBefore?: Date;
}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-ca-'));
  try {
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const extensions = file(
      'ext.cnf',
      '[leaf]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\n',
    );
    const args = [
      'x509',
      '-req',
      '-in',
      file('request.csr', options.csrPem),
      '-CA',
      file('ca.pem', options.issuer.certificate.toString('pem')),
      '-CAkey',
      file('ca.key', await privateKeyPem(options.issuer)),
      '-set_serial',
      `0x${randomBytes(8)
        .toString('hex')
        .replace(/^[89a-f]/, '1')}`,
      '-days',
      String(options.days ?? 200),
      '-sha256',
      '-copy_extensions',
      'copy',
      '-extfile',
      extensions,
      '-extensions',
      'leaf',
    ];
    const run = spawnSync('openssl', args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl x509 -req failed: ${run.stderr}`);
    return run.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl req -verify -text` on a request: its text (RFC 2253 names) and whether its self-signature verified. */
export function readRequestWithOpenssl(csrPem: string): { text: string; verified: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-csr-'));
  try {
    writeFileSync(join(dir, 'request.csr'), csrPem);
    const run = spawnSync(
      'openssl',
      ['req', '-in', join(dir, 'request.csr'), '-verify', '-noout', '-text', '-nameopt', 'RFC2253'],
      { encoding: 'utf8' },
    );
    const text = `${run.stdout}${run.stderr}`;
    // OpenSSL 3.0 exits 0 on a failed self-signature and says so: judge by its words and the exit code.
    return { text, verified: run.status === 0 && text.includes('self-signature verify OK') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An access certificate with its key (for the import with `privateKeyPem`): C, O, organizationIdentifier, CN. */
export async function issueAccessCertificate(options: {
  issuer: Issued;
  organizationIdentifier?: string;
  commonName?: string;
  dns?: string[];
}): Promise<Issued> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    subject: [
      { C: ['DE'] },
      { O: ['Example Shop GmbH'] },
      ...(options.organizationIdentifier ? [{ [ORGANIZATION_IDENTIFIER]: [options.organizationIdentifier] }] : []),
      { CN: [options.commonName ?? 'Example Shop'] },
    ],
    issuer: options.issuer.certificate.subject,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 200 * DAY),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: options.issuer.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(options.dns
        ? [new x509.SubjectAlternativeNameExtension(options.dns.map((value) => ({ type: 'dns' as const, value })))]
        : []),
    ],
  });
  return { certificate, keys };
}
