import { readFileSync } from 'node:fs';
import { splitPemCertificates, StartupError } from '@tessera/service-kit';
import { parseTrustAnchor } from '../verification/index.js';

// A start step (server.ts, before any connection is opened).

/** REGISTRAR_TRUST_ANCHORS_FILE cannot be used: the process stops at start with this one line. */
export class RegistrarAnchorsFileError extends StartupError {
  constructor(message: string) {
    super(`REGISTRAR_TRUST_ANCHORS_FILE: ${message}`);
    this.name = 'RegistrarAnchorsFileError';
  }
}

/**
 * The platform-wide registrar anchors: a PEM bundle of the CA certificates registration
 * certificates (ETSI TS 119 475) of every organisation's verifiers may validate to — in the EU,
 * the registrars' (or their WRPRC providers') CAs as the national trusted lists publish them.
 * Every certificate must be a CA certificate (the rule of a trust anchor). A file that cannot be
 * read, holds no certificate, or holds one that is not a CA stops the start.
 */
export function loadRegistrarAnchors(path: string | undefined): string[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RegistrarAnchorsFileError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const blocks = splitPemCertificates(text);
  if (blocks.length === 0) throw new RegistrarAnchorsFileError(`${path} holds no PEM certificate`);
  blocks.forEach((certificatePem, index) => {
    const parsed = parseTrustAnchor({ certificatePem });
    if (!parsed.ok) throw new RegistrarAnchorsFileError(`certificate ${index + 1} of ${path}: ${parsed.message}`);
  });
  return blocks;
}
