import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { loadTrustedIssuers, TrustedIssuersFileError } from '../../src/use-cases/load-trusted-issuers.js';
import { sdJwtQuery } from '../support/dcql-queries.js';
import { e2eTest, temporaryDirectory } from '../support/fixtures.js';
import { PUBLIC_BASE_URL, TEST_OIDC_ENV } from '../support/harness.js';
import { buildResponse, presentPid, requestFacts, resolveRedirectRequest, submitResponse } from '../support/holder.js';
import { createIssuer, issuePid, newHolder } from '../support/issuers.js';
import { runUntilExit } from '../support/service-process.js';

// The platform's issuer bundle: read once at start, trusted by every organisation.
const platformIssuer = await createIssuer('Platform Issuer');
const test = e2eTest({ trustedIssuers: [platformIssuer.ca.pem] }).extend(
  'dir',
  { scope: 'file' },
  temporaryDirectory('verifier-anchors-'),
);

describe('TRUSTED_ISSUERS_FILE', () => {
  test('loads every CA certificate of the bundle; an unreadable, empty or non-CA bundle is an error naming the variable', async ({
    dir,
  }) => {
    const a = await createIssuer('Bundle A');
    const b = await createIssuer('Bundle B');
    const good = join(dir, 'good.pem');
    writeFileSync(good, `# platform issuers\n${a.ca.pem}\n${b.ca.pem}`);
    expect(loadTrustedIssuers(good)).toHaveLength(2);
    expect(loadTrustedIssuers(undefined)).toEqual([]);
    const leaf = join(dir, 'leaf.pem');
    writeFileSync(leaf, `${a.ca.pem}\n${a.leaf.pem}`);
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'nothing here');
    for (const path of [leaf, empty, join(dir, 'missing.pem')]) {
      expect(() => loadTrustedIssuers(path)).toThrow(TrustedIssuersFileError);
      expect(() => loadTrustedIssuers(path)).toThrow(/^TRUSTED_ISSUERS_FILE: /);
    }
  });

  test('the process exits 1 with one clear line when the bundle is bad', async ({ dir }) => {
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, 'not a certificate');
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL,
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      ...TEST_OIDC_ENV,
      TRUSTED_ISSUERS_FILE: bad,
      DATA_DIR: dir,
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    };
    const { code, stderr } = await runUntilExit(env);
    expect(code).toBe(1);
    expect(stderr).toContain(`verifier: TRUSTED_ISSUERS_FILE: ${bad} holds no PEM certificate`);
  });

  test('an issuer in the platform bundle is trusted by every organisation without an anchor of its own', async ({
    e2e: e,
  }) => {
    const session = await e.createSession({ dcql: sdJwtQuery(), responseMode: 'direct_post' });
    const holder = await newHolder();
    const resolved = await resolveRedirectRequest(e.wallet, session.authorizationRequestUri!);
    const presentation = await presentPid(await issuePid(platformIssuer, holder), holder, requestFacts(resolved));
    expect(
      (await submitResponse(e.wallet, resolved, await buildResponse(e.wallet, resolved, { pid: [presentation] })))
        .status,
    ).toBe(200);
  });
});
