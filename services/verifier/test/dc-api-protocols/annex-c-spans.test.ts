import { afterAll, beforeAll, describe, expect } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { startTracing, type Tracing } from '@tessera/service-kit';
import { answerDcApi, requestOf } from '../support/dc-api-wallet.js';
import { mdocQuery } from '../support/dcql-queries.js';
import { e2eTest } from '../support/fixtures.js';

// An org-iso-mdoc answer is traced like any other (README, Traces): the HPKE open
// and each check of the verification table in its own span, with its outcome code only.
const ORIGIN = 'https://rp.tessera.test';
const exporter = new InMemorySpanExporter();
let tracing: Tracing | undefined;
beforeAll(() => {
  tracing = startTracing({ service: 'verifier', exporter });
});
afterAll(async () => {
  await tracing?.shutdown();
});
const test = e2eTest();

describe('spans of an org-iso-mdoc answer', () => {
  test('the EncryptedResponse opened, then the engine’s checks, each with its outcome', async ({ e2e: e }) => {
    const session = await e.createSession({
      dcql: mdocQuery(),
      responseMode: 'dc_api',
      expectedOrigins: [ORIGIN],
      dcApiProtocols: ['org-iso-mdoc'],
    });
    const authorizationResponse = await answerDcApi(e, requestOf(session, 'org-iso-mdoc'), {
      origin: ORIGIN,
      format: 'mdoc',
    });
    const answered = await e.verifyDcApi({ verificationSessionId: session.id, authorizationResponse, origin: ORIGIN });
    expect(answered.body.data.state).toBe('ResponseVerified');
    const refused = await e.verifyDcApi({
      verificationSessionId: (
        await e.createSession({
          dcql: mdocQuery(),
          responseMode: 'dc_api',
          expectedOrigins: [ORIGIN],
          dcApiProtocols: ['org-iso-mdoc'],
        })
      ).id,
      authorizationResponse,
      origin: ORIGIN,
    });
    expect(refused.body.code).toBe('DECRYPTION_FAILED');

    const checks = exporter
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('verify '))
      .map((span) => [span.name, span.attributes['tessera.verification.outcome']]);
    expect(checks).toEqual(
      expect.arrayContaining([
        ['verify annex_c_response', 'ok'],
        ['verify annex_c_response', 'DECRYPTION_FAILED'],
        ['verify vp_token_shape', 'ok'],
        ['verify issuer_trust', 'ok'],
        ['verify validity', 'ok'],
        ['verify dcql', 'ok'],
      ]),
    );
    // Nothing of the presentation or the keys reaches a span.
    const attributes = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
    expect(attributes).not.toContain('Mustermann');
    expect(attributes).not.toContain(String(authorizationResponse.response).slice(0, 40));
  });
});
