import { describe, expect } from 'vitest';
import { harnessTest } from '../support/fixtures.js';
import { advanceTrustListSequence } from '../support/trust-registry.js';
import { verifyTrustList } from '../support/signed-trust-list.js';

// A replica keeps the list it signed for a sequence and signs it again once half the
// validity has passed, so a list is re-signed before its NextUpdate even when nothing
// changes; a new sequence is signed at once. The app's clock is the test's.

const VALIDITY_SECONDS = 3600;
let now = new Date('2030-01-01T12:00:00.000Z');
const test = harnessTest({ clock: () => now, env: { TRUST_LIST_VALIDITY_SECONDS: String(VALIDITY_SECONDS) } });
const minutes = (n: number) => n * 60_000;

describe('re-signing the trust list', () => {
  test('reused within half the validity, re-signed after it (same sequence, new dates), and at once on a change', async ({
    harness: h,
    world,
  }) => {
    const path = `/v1/ecosystem/${world.ecosystemId}/trust-list`;
    const ca = (await h.call('GET', '/v1/trust-list-ca.pem')).raw;
    const read = async () => {
      const response = await h.call('GET', path, { token: world.tokens.member });
      expect(response.status).toBe(200);
      return { jws: response.raw, ...(await verifyTrustList(response.raw, ca, now)) };
    };

    const first = await read();
    expect(first.payload.LoTE.ListAndSchemeInformation).toMatchObject({
      ListIssueDateTime: '2030-01-01T12:00:00Z',
      NextUpdate: '2030-01-01T13:00:00Z',
      LoTESequenceNumber: 0,
    });

    now = new Date(now.getTime() + minutes(29));
    expect((await read()).jws).toBe(first.jws);

    now = new Date(now.getTime() + minutes(1));
    const resigned = await read();
    expect(resigned.jws).not.toBe(first.jws);
    expect(resigned.payload.LoTE.ListAndSchemeInformation).toMatchObject({
      ListIssueDateTime: '2030-01-01T12:30:00Z',
      NextUpdate: '2030-01-01T13:30:00Z',
      LoTESequenceNumber: 0,
    });
    // Re-signed well before the first copy's NextUpdate: a reader always has half the validity left.
    expect(
      new Date(resigned.payload.LoTE.ListAndSchemeInformation.ListIssueDateTime) <
        new Date(first.payload.LoTE.ListAndSchemeInformation.NextUpdate),
    ).toBe(true);

    // A committed registry change (the sequence moves): signed anew at once.
    await advanceTrustListSequence(h, world.ecosystemId);
    now = new Date(now.getTime() + 1000);
    const changed = await read();
    expect(changed.payload.LoTE.ListAndSchemeInformation).toMatchObject({
      LoTESequenceNumber: 1,
      ListIssueDateTime: '2030-01-01T12:30:01Z',
    });
  });

  test('a clock that went back signs anew rather than serve a list issued "later"', async ({ harness: h, world }) => {
    const path = `/v1/ecosystem/${world.ecosystemId}/trust-list`;
    const before = (await h.call('GET', path, { token: world.tokens.lead })).raw;
    now = new Date(now.getTime() - minutes(10));
    const after = await h.call('GET', path, { token: world.tokens.lead });
    expect(after.raw).not.toBe(before);
  });

  test('the signing certificate covers the NextUpdate of every list it signs, days ahead', async ({
    harness: h,
    world,
  }) => {
    const ca = (await h.call('GET', '/v1/trust-list-ca.pem')).raw;
    const path = `/v1/ecosystem/${world.ecosystemId}/trust-list`;
    const { signer, payload } = await verifyTrustList(
      (await h.call('GET', path, { token: world.tokens.lead })).raw,
      ca,
      now,
    );
    expect(signer.notAfter.getTime()).toBeGreaterThanOrEqual(
      new Date(payload.LoTE.ListAndSchemeInformation.NextUpdate).getTime(),
    );
    // Forty days on, the first key's certificate (30 days) has ended: a new key and certificate sign.
    now = new Date(now.getTime() + 40 * 86_400_000);
    const later = await verifyTrustList((await h.call('GET', path, { token: world.tokens.lead })).raw, ca, now);
    expect(later.signer.serialNumber).not.toBe(signer.serialNumber);
    expect(later.signer.notAfter.getTime()).toBeGreaterThanOrEqual(
      new Date(later.payload.LoTE.ListAndSchemeInformation.NextUpdate).getTime(),
    );
  });
});
