import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { serviceTracer, startTracing, type Tracing } from '@tessera/service-kit';
import { SERVICE_NAME } from '../../src/config.js';
import { verifyPresentation } from '../../src/verification/index.js';
import { CLIENT_ID, createPki, NONCE, noStatusLists, NOW, RESPONSE_URI, type Pki } from './support/fixtures.js';
import { issueMdoc, MDL_DOCTYPE, MDL_NAMESPACE, presentMdoc } from './support/mdoc.js';
import { issuePid, presentPid, verify, type Holder } from './support/sd-jwt-scenario.js';
import { generateEs256 } from './support/sd-jwt.js';

// Issue 16 item 2: a span per verification check, with its outcome code and nothing of the presentation.
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let pki: Pki;
let holder: Holder;
beforeAll(async () => {
  tracing = startTracing({ service: SERVICE_NAME, exporter });
  pki = await createPki();
  holder = await generateEs256();
});
afterAll(() => tracing.shutdown());

// The engine traces with the tracer it is given: the service's, as run-verification passes it.
const tracer = () => serviceTracer(SERVICE_NAME)!;
const checks = () =>
  exporter.getFinishedSpans().map((span) => [span.name, span.attributes['tessera.verification.outcome']]);

describe('verification check spans', () => {
  it('a verified presentation has one span per check, each ok, holding no claim', async () => {
    exporter.reset();
    const issued = await issuePid(pki, holder);
    expect(await verify(pki, { vpToken: { pid: [await presentPid(issued, holder)] }, tracer: tracer() })).toMatchObject(
      { ok: true },
    );
    // In the order they end: a presentation's rows inside its credential span.
    expect(checks()).toEqual([
      ['verify vp_token_shape', 'ok'],
      ['verify issuer_signature', 'ok'],
      ['verify disclosures', 'ok'],
      ['verify issuer_trust', 'ok'],
      ['verify issuer_identifier', 'ok'],
      ['verify credential_type', 'ok'],
      ['verify validity', 'ok'],
      ['verify key_binding', 'ok'],
      ['verify sd_jwt_vc_credential', 'ok'],
      ['verify transaction_data', 'ok'],
      ['verify dcql', 'ok'],
      ['verify status', 'ok'],
    ]);
    const spans = exporter.getFinishedSpans();
    const credential = spans.find((span) => span.name === 'verify sd_jwt_vc_credential')!;
    expect(spans.find((span) => span.name === 'verify key_binding')!.parentSpanContext?.spanId).toBe(
      credential.spanContext().spanId,
    );
    for (const span of exporter.getFinishedSpans()) {
      expect(Object.keys(span.attributes).sort()).toEqual([
        'tessera.verification.check',
        'tessera.verification.outcome',
      ]);
      expect(JSON.stringify(span.attributes)).not.toMatch(/Erika|Mustermann/);
    }
  });

  it('a failing check carries its verification code and the checks after it do not run', async () => {
    exporter.reset();
    const issued = await issuePid(pki, holder);
    expect(
      await verify(pki, {
        vpToken: { pid: [await presentPid(issued, holder, { nonce: 'another-nonce' })] },
        tracer: tracer(),
      }),
    ).toMatchObject({ ok: false, code: 'NONCE_MISMATCH' });
    expect(checks()).toEqual([
      ['verify vp_token_shape', 'ok'],
      ['verify issuer_signature', 'ok'],
      ['verify disclosures', 'ok'],
      ['verify issuer_trust', 'ok'],
      ['verify issuer_identifier', 'ok'],
      ['verify credential_type', 'ok'],
      ['verify validity', 'ok'],
      ['verify key_binding', 'NONCE_MISMATCH'],
      ['verify sd_jwt_vc_credential', 'NONCE_MISMATCH'],
      ['verify transaction_data', 'ok'],
    ]);
  });

  it('an mdoc presentation has its trust, doctype and validity rows inside its credential span; an expired one says CREDENTIAL_EXPIRED', async () => {
    const DAY = 86_400_000;
    const presentation = await presentMdoc({
      issuerSigned: await issueMdoc({
        namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann', age_over_18: true } },
        signerPrivateJwk: pki.documentSignerJwk,
        certificates: [pki.documentSigner.der],
        devicePublicJwk: holder.publicJwk,
        validFrom: new Date(NOW.getTime() - 30 * DAY),
        validUntil: new Date(NOW.getTime() - DAY),
      }),
      devicePrivateJwk: holder.privateJwk,
      handover: { kind: 'redirect', clientId: CLIENT_ID, responseUri: RESPONSE_URI, nonce: NONCE },
    });
    exporter.reset();
    const result = await verifyPresentation({
      vpToken: { mdl: [presentation] },
      dcqlQuery: {
        credentials: [
          {
            id: 'mdl',
            format: 'mso_mdoc',
            meta: { doctype_value: MDL_DOCTYPE },
            claims: [{ path: [MDL_NAMESPACE, 'age_over_18'] }],
          },
        ],
      },
      clientId: CLIENT_ID,
      nonce: NONCE,
      responseUri: RESPONSE_URI,
      flow: { kind: 'redirect' },
      trust: { certificates: [pki.iaca.pem], dids: [] },
      statusLists: noStatusLists,
      now: NOW,
      tracer: tracer(),
    });
    expect(result).toMatchObject({ ok: false, code: 'CREDENTIAL_EXPIRED' });
    expect(checks()).toEqual([
      ['verify vp_token_shape', 'ok'],
      ['verify issuer_trust', 'ok'],
      ['verify credential_type', 'ok'],
      ['verify validity', 'CREDENTIAL_EXPIRED'],
      ['verify mdoc_credential', 'CREDENTIAL_EXPIRED'],
      ['verify transaction_data', 'ok'],
    ]);
  });

  it('a vp_token of the wrong shape is INVALID_VP_TOKEN at the first check', async () => {
    exporter.reset();
    expect(await verify(pki, { vpToken: 'not-an-object', tracer: tracer() })).toMatchObject({
      ok: false,
      code: 'INVALID_VP_TOKEN',
    });
    expect(checks()).toEqual([['verify vp_token_shape', 'INVALID_VP_TOKEN']]);
  });
});
