import { readFileSync } from 'node:fs';
import { splitPemCertificates, StartupError } from '@tessera/service-kit';
import { parseTrustAnchor } from '../verification/index.js';

// A start step (server.ts, before any connection is opened).

/** TRUSTED_ISSUERS_FILE cannot be used: the process stops at start with this one line. */
export class TrustedIssuersFileError extends StartupError {
  constructor(message: string) {
    super(`TRUSTED_ISSUERS_FILE: ${message}`);
    this.name = 'TrustedIssuersFileError';
  }
}

/**
 * The platform-wide issuer anchors: every certificate of the PEM bundle, each
 * a CA certificate (the same rule as an organisation's anchor). A file that
 * cannot be read, holds no certificate, or holds one that is not a CA stops
 * the start rather than silently trusting less (or more) than configured.
 */
export function loadTrustedIssuers(path: string | undefined): string[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TrustedIssuersFileError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const blocks = splitPemCertificates(text);
  if (blocks.length === 0) throw new TrustedIssuersFileError(`${path} holds no PEM certificate`);
  blocks.forEach((block, index) => {
    const parsed = parseTrustAnchor({ certificatePem: block });
    if (!parsed.ok) throw new TrustedIssuersFileError(`certificate ${index + 1} of ${path}: ${parsed.message}`);
  });
  return blocks;
}
