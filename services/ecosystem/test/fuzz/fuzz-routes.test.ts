import { describe, expect } from 'vitest';
import { AppError, InProcessBus, serveRequests } from '@tessera/service-kit';
import { ErrorCode, verificationTemplateGetRpc, type IntentTemplate } from '@tessera/contracts';
import {
  FUZZ_SEED,
  fuzzAllRoutes,
  fuzzRunsPerRoute,
  silentLogger,
  type CallResult,
} from '@tessera/service-kit/testing';
import { harnessTest } from '../support/fixtures.js';
import { snapshotTenantData } from '../support/tenant-data.js';
import { noticeBody } from '../support/notice-body.js';
import type { Enveloped } from '../support/responses.js';
import { createIntentAsLead, ORG } from '../support/world.js';

// Requests generated from each route's own schema, valid-shaped and hostile, with a
// fixed seed (FUZZ_SEED) and FUZZ_RUNS requests per route (40 by default), sent as a
// caller who is platform admin and owner of every organisation of the cast, so that
// requests get past authorization into the service's logic.
const test = harnessTest().extend('known', { scope: 'file' }, async ({ harness: h, world }, { onCleanup }) => {
  const intentId = await createIntentAsLead(h, world, 'age-check', 'Check age');
  const template: CallResult<Enveloped<IntentTemplate>> = await h.call('POST', `/v1/intent/${intentId}/template`, {
    token: world.tokens.lead,
    body: { templateId: 'cred-template-1', role: 'issuer' },
  });
  await h.call('POST', `/v1/intent/${intentId}/notice`, { token: world.tokens.lead, body: noticeBody() });
  // The verifier's side of template checks, so verifier-role requests reach the service's logic.
  const verifier = new InProcessBus(h.hub);
  serveRequests(verifier, verificationTemplateGetRpc, {
    logger: silentLogger(),
    handler: async ({ templateId }) => {
      if (templateId !== 'verifier-template-1')
        throw new AppError(404, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND, 'No such template.');
      return { id: templateId, orgId: ORG.lead, name: 'Age check', signerOption: 'DID' as const };
    },
  });
  onCleanup(() => verifier.close());
  const token = await h.idp.mint({
    sub: 'user-lead',
    email: 'lead@example.org',
    platformAdmin: true,
    orgRoles: Object.fromEntries(Object.values(ORG).map((org) => [org, ['owner', 'admin']])),
  });
  return { intentId, intentTemplateId: template.body.data.id, token };
});

describe('ecosystem fuzzing', () => {
  test('never answers 5xx, always answers the error body and security headers, CORS only on the trust list and its CA, and changes nothing on a 4xx', async ({
    harness: h,
    world,
    known,
  }) => {
    const report = await fuzzAllRoutes({
      app: h.app,
      seed: FUZZ_SEED,
      runsPerRoute: fuzzRunsPerRoute(),
      authHeaders: { authorization: `Bearer ${known.token}` },
      knownPathValues: {
        orgId: Object.values(ORG),
        ecosystemId: [world.ecosystemId],
        intentId: [known.intentId],
        intentTemplateId: [known.intentTemplateId],
      },
      snapshot: () => snapshotTenantData(h),
      // The signed trust list and its CA are meant for outside verifiers, browsers included.
      corsAllowed: (route) =>
        route.path === '/v1/ecosystem/{ecosystemId}/trust-list' || route.path === '/v1/trust-list-ca.pem',
    });
    expect(report.routes).toBeGreaterThanOrEqual(20);
    expect(report.problems).toEqual([]);
  }, 300000);
});
