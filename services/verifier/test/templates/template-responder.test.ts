import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { NatsReply, Subject, VerificationTemplateSummarySchema } from '@tessera/contracts';
import { Value } from 'typebox/value';
import { mdocQuery } from '../support/dcql-queries.js';
import { harnessTest } from '../support/fixtures.js';

const LEAD_ORG = 'org-lead';

// The ecosystem service reads templates over the bus; it connects as a peer of the app's bus.
const test = harnessTest().extend('ecosystem', { scope: 'file' }, async ({ harness }, { onCleanup }) => {
  const bus = await harness.connectPeer('ecosystem-stub');
  onCleanup(() => bus.close());
  return bus;
});

describe('verification templates over NATS', () => {
  test('answers verifier.v1.verification-template.get for the ecosystem service', async ({ api, ecosystem }) => {
    const template = {
      name: 'Age',
      templateJson: { dcql: { query: mdocQuery() } },
      signerOption: 'X509_ED25519',
      clientIdPrefix: 'x509_san_dns',
    };
    const leadTemplateId = (
      await api('POST', `/v1/orgs/${LEAD_ORG}/oid4vp/verification-template`, template, { org: LEAD_ORG })
    ).body.data.id;
    const reply = await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: leadTemplateId });
    expect(Value.Check(NatsReply(VerificationTemplateSummarySchema), reply)).toBe(true);
    expect(reply).toEqual({
      ok: true,
      data: { id: leadTemplateId, orgId: LEAD_ORG, name: 'Age', signerOption: 'X509_ED25519' },
    });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: randomUUID() })).toMatchObject({
      ok: false,
      error: { statusCode: 404, code: 'VERIFICATION_TEMPLATE_NOT_FOUND' },
    });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { templateId: 'x' })).toMatchObject({
      ok: false,
      error: { statusCode: 404 },
    });
    expect(await ecosystem.request(Subject.VERIFICATION_TEMPLATE_GET, { nope: 1 })).toMatchObject({
      ok: false,
      error: { statusCode: 400, code: 'VALIDATION_FAILED' },
    });
  });
});
