import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { TrustAnchor } from '@tessera/contracts';
import { TEST_OIDC_AUDIENCE, TEST_OIDC_ISSUER } from '@tessera/service-kit/testing';
import { loadTrustedIssuers, TrustedIssuersFileError } from '../../src/use-cases/load-trusted-issuers.js';
import { didJwk, generateEs256, issueSdJwtVc } from '../verification/support/sd-jwt.js';
import {
  answerRedirect,
  expectFailedWith,
  expectVerified,
  issueCredential,
  presentAll,
} from '../support/crafted-answers.js';
import { createCustomIssuer } from '../support/custom-issuer.js';
import { mdocQuery } from '../support/dcql-queries.js';
import type { E2e } from '../support/e2e.js';
import { e2eFixture, e2eTest, temporaryDirectory } from '../support/fixtures.js';
import { PUBLIC_BASE_URL } from '../support/harness.js';
import { presentMdl, type RequestFacts } from '../support/holder.js';
import { issueMdl, MDL_DOCTYPE, PID_VCT, type Holder, type TestIssuer } from '../support/issuers.js';
import { oid4vpPath } from '../support/management.js';

// Trust anchors (organisation and platform) may carry credentialTypes: the vct
// values and mdoc doctypes chains under them may issue. A credential of
// another type under such an anchor fails with CREDENTIAL_TYPE_NOT_ALLOWED.
const DIPLOMA_VCT = 'https://example.eu/diploma';
const anchors = `${oid4vpPath()}/trust-anchors`;
/** A query that accepts both the PID and the diploma type, so DCQL never decides. */
const anyTypeQuery = () => ({
  combine: 'all',
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT, DIPLOMA_VCT] },
      claims: [{ path: ['given_name'] }],
    },
  ],
});

// `bundle`: two issuers and a JSON TRUSTED_ISSUERS_FILE listing them (one limited to
// the PID type); `platform`: another end-to-end setting whose platform anchors are
// that file's.
const test = e2eTest()
  .extend('dir', { scope: 'file' }, temporaryDirectory('verifier-types-'))
  .extend('bundle', { scope: 'file' }, async ({ dir }) => {
    const limited = await createCustomIssuer();
    const open = await createCustomIssuer();
    const file = join(dir, 'issuers.json');
    writeFileSync(
      file,
      JSON.stringify([{ certificatePem: limited.ca.pem, credentialTypes: [PID_VCT] }, { certificatePem: open.ca.pem }]),
    );
    return { limited, open, file };
  })
  .extend('platform', { scope: 'file' }, ({ bundle }, hooks) =>
    e2eFixture({ trustedIssuers: loadTrustedIssuers(bundle.file) })({}, hooks),
  );

async function presentSdJwt(target: E2e, issuer: TestIssuer, vct: string) {
  const s = await target.createSession({ dcql: anyTypeQuery(), responseMode: 'direct_post' });
  return {
    s,
    answered: await answerRedirect(target, s, 'pid', async (holder, facts) =>
      presentAll(await issueCredential(issuer, holder, { claims: { vct } }))(holder, facts),
    ),
  };
}

describe('the trust-anchor API takes and returns credentialTypes', () => {
  test('stores the list (repeats removed) and answers it on create and list; absent means any type', async ({
    e2e: _anchoredTestIssuer,
    api,
  }) => {
    const limited = await createCustomIssuer();
    const created = await api('POST', anchors, {
      certificatePem: limited.ca.pem,
      label: 'PID CA',
      credentialTypes: [PID_VCT, MDL_DOCTYPE, PID_VCT],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      kind: 'certificate',
      label: 'PID CA',
      credentialTypes: [PID_VCT, MDL_DOCTYPE],
    });
    const listed = await api('GET', `${anchors}?pageSize=100`);
    const listedAnchors = listed.body.data.data as TrustAnchor[];
    expect(listedAnchors.find((anchor) => anchor.id === created.body.data.id)!.credentialTypes).toEqual([
      PID_VCT,
      MDL_DOCTYPE,
    ]);
    const unlimited = listedAnchors.find((anchor) => anchor.label === 'test issuer');
    expect(unlimited).toBeDefined();
    expect(unlimited).not.toHaveProperty('credentialTypes');
  });

  test.for([
    ['an empty list', []],
    ['an empty type', ['']],
    ['a type that is not a string', [{ vct: PID_VCT }]],
    ['more than 100 types', Array.from({ length: 101 }, (_v, index) => `https://example.eu/type-${index}`)],
    ['a type longer than 500 characters', [`https://example.eu/${'x'.repeat(500)}`]],
  ] as const)('refuses %s (400 VALIDATION_FAILED)', async ([_what, credentialTypes], { api }) => {
    const issuer = await createCustomIssuer();
    const response = await api('POST', anchors, { certificatePem: issuer.ca.pem, credentialTypes });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('an organisation anchor limited to credential types', () => {
  test('SD-JWT VC: the listed vct verifies; another → CREDENTIAL_TYPE_NOT_ALLOWED; the same type under an unlimited anchor verifies', async ({
    e2e: e,
    api,
  }) => {
    const issuer = await createCustomIssuer();
    expect((await api('POST', anchors, { certificatePem: issuer.ca.pem, credentialTypes: [PID_VCT] })).status).toBe(
      201,
    );
    const pid = await presentSdJwt(e, issuer, PID_VCT);
    await expectVerified(e, pid.s, pid.answered);
    const diploma = await presentSdJwt(e, issuer, DIPLOMA_VCT);
    await expectFailedWith(e, diploma.s, diploma.answered, 'CREDENTIAL_TYPE_NOT_ALLOWED');
    // e.issuer's anchor (added by the e2e setting) has no limit.
    const unlimited = await presentSdJwt(e, e.issuer, DIPLOMA_VCT);
    await expectVerified(e, unlimited.s, unlimited.answered);
  });

  test('mdoc: the doctype is checked against the list', async ({ e2e: e, api }) => {
    const pidOnly = await createCustomIssuer();
    const mdlToo = await createCustomIssuer();
    expect((await api('POST', anchors, { certificatePem: pidOnly.ca.pem, credentialTypes: [PID_VCT] })).status).toBe(
      201,
    );
    expect(
      (await api('POST', anchors, { certificatePem: mdlToo.ca.pem, credentialTypes: [PID_VCT, MDL_DOCTYPE] })).status,
    ).toBe(201);
    const present = (issuer: TestIssuer) => async (holder: Holder, facts: RequestFacts) =>
      presentMdl(await issueMdl(issuer, holder), holder, facts);
    const refused = await e.createSession({ dcql: mdocQuery(), responseMode: 'direct_post' });
    await expectFailedWith(
      e,
      refused,
      await answerRedirect(e, refused, 'mdl', present(pidOnly)),
      'CREDENTIAL_TYPE_NOT_ALLOWED',
      'mdl',
    );
    const allowed = await e.createSession({ dcql: mdocQuery(), responseMode: 'direct_post' });
    await expectVerified(e, allowed, await answerRedirect(e, allowed, 'mdl', present(mdlToo)));
  });

  test('a DID anchor limited to a type refuses its other types', async ({ e2e: e, api }) => {
    const issuerKey = await generateEs256();
    const did = didJwk(issuerKey.publicJwk);
    expect((await api('POST', anchors, { did, credentialTypes: [PID_VCT] })).status).toBe(201);
    const present = (vct: string) => async (holder: Holder, facts: RequestFacts) =>
      presentAll(
        await issueSdJwtVc({
          signingKey: issuerKey.privateKey,
          kid: `${did}#0`,
          vct,
          claims: { iss: did },
          disclosable: { given_name: 'Erika' },
          holderPublicJwk: holder.publicJwk,
        }),
      )(holder, facts);
    const pid = await e.createSession({ dcql: anyTypeQuery(), responseMode: 'direct_post' });
    await expectVerified(e, pid, await answerRedirect(e, pid, 'pid', present(PID_VCT)));
    const diploma = await e.createSession({ dcql: anyTypeQuery(), responseMode: 'direct_post' });
    await expectFailedWith(
      e,
      diploma,
      await answerRedirect(e, diploma, 'pid', present(DIPLOMA_VCT)),
      'CREDENTIAL_TYPE_NOT_ALLOWED',
    );
  });
});

describe('the platform bundle (TRUSTED_ISSUERS_FILE) as JSON with credentialTypes', () => {
  test('limits an entry to its types, leaves an entry without them unlimited, and an organisation anchor for the same CA without a limit lifts it', async ({
    bundle: { limited, open, file },
    platform: { e2e: platform, api },
  }) => {
    const loaded = loadTrustedIssuers(file);
    expect(loaded).toEqual([
      { certificatePem: limited.ca.pem, credentialTypes: [PID_VCT] },
      { certificatePem: open.ca.pem },
    ]);
    const pid = await presentSdJwt(platform, limited, PID_VCT);
    await expectVerified(platform, pid.s, pid.answered);
    const diploma = await presentSdJwt(platform, limited, DIPLOMA_VCT);
    await expectFailedWith(platform, diploma.s, diploma.answered, 'CREDENTIAL_TYPE_NOT_ALLOWED');
    const openDiploma = await presentSdJwt(platform, open, DIPLOMA_VCT);
    await expectVerified(platform, openDiploma.s, openDiploma.answered);
    // The organisation trusts the same CA for every type: what either listing allows is allowed.
    expect((await api('POST', anchors, { certificatePem: limited.ca.pem })).status).toBe(201);
    const lifted = await presentSdJwt(platform, limited, DIPLOMA_VCT);
    await expectVerified(platform, lifted.s, lifted.answered);
  });

  test('keeps PEM bundles working and refuses a malformed JSON bundle naming the variable', async ({ dir }) => {
    const a = await createCustomIssuer();
    const pem = join(dir, 'bundle.pem');
    writeFileSync(pem, a.ca.pem);
    // A PEM bundle: every certificate an anchor for any type (no credentialTypes).
    expect(loadTrustedIssuers(pem)).toEqual([
      { certificatePem: expect.stringContaining('-----BEGIN CERTIFICATE-----') },
    ]);
    const cases = {
      'not-json.json': '[ not json',
      'wrong-shape.json': JSON.stringify([{ pem: a.ca.pem }]),
      'empty-types.json': JSON.stringify([{ certificatePem: a.ca.pem, credentialTypes: [] }]),
      'empty.json': '[]',
      'leaf.json': JSON.stringify([{ certificatePem: a.leaf.pem }]),
    };
    for (const [name, text] of Object.entries(cases)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      expect(() => loadTrustedIssuers(path), name).toThrow(TrustedIssuersFileError);
      expect(() => loadTrustedIssuers(path), name).toThrow(/^TRUSTED_ISSUERS_FILE: /);
    }
  });

  test('the process exits 1 with one clear line when the JSON bundle is malformed', async ({ dir }) => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ certificatePem: 'x', credentialTypes: [''] }]));
    const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PUBLIC_BASE_URL,
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      OIDC_ISSUER: TEST_OIDC_ISSUER,
      OIDC_AUDIENCE: TEST_OIDC_AUDIENCE,
      OIDC_JWKS_URI: 'https://idp.example/jwks',
      TRUSTED_ISSUERS_FILE: bad,
      DATA_DIR: dir,
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let text = '';
      child.stderr.on('data', (chunk) => (text += String(chunk)));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stderr: text }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `verifier: TRUSTED_ISSUERS_FILE: ${bad} is not a JSON array of { certificatePem, credentialTypes? }`,
    );
  });
});
