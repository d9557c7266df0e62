import type { PresentationSession } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { sessionTimeline } from '../../src/domain/session-timeline.js';

const session = (patch: Partial<PresentationSession>): PresentationSession => ({
  id: '5b1c0000-0000-4000-8000-000000000000',
  authorizationRequestId: 'r',
  publicVerifierId: 'desk',
  clientId: 'x509_hash:abc',
  nonce: 'n',
  payloadState: 's',
  responseMode: 'direct_post',
  state: 'RequestCreated',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  expiresAt: '2026-01-01T10:05:00.000Z',
  ...patch,
});

describe("a session's timeline", () => {
  it('verified: created, fetched and verified at the times the record gives, then the reads in order', () => {
    const steps = sessionTimeline(
      session({
        state: 'ResponseVerified',
        requestRetrievedAt: '2026-01-01T10:00:04.000Z',
        answeredAt: '2026-01-01T10:00:08.000Z',
        updatedAt: '2026-01-01T10:00:08.000Z',
      }),
      [
        { sessionId: 'x', subject: 'bob', route: 'verifier-presentation-response', readAt: '2026-01-01T10:02:00.000Z' },
        {
          sessionId: 'x',
          subject: 'alice',
          route: 'verifier-presentation-response',
          readAt: '2026-01-01T10:01:00.000Z',
        },
      ],
    );
    expect(steps.map((step) => [step.title, step.at, step.tone])).toEqual([
      ['Request created (direct_post) for verifier desk', '2026-01-01T10:00:00.000Z', 'neutral'],
      ['Request fetched by the wallet', '2026-01-01T10:00:04.000Z', 'neutral'],
      ['Answered by the wallet and verified', '2026-01-01T10:00:08.000Z', 'good'],
      ['Presentation data read by alice', '2026-01-01T10:01:00.000Z', 'neutral'],
      ['Presentation data read by bob', '2026-01-01T10:02:00.000Z', 'neutral'],
    ]);
  });

  it('refused: the step names the check that refused and the verifier’s words, at the answer’s time', () => {
    const steps = sessionTimeline(
      session({
        state: 'Error',
        error: { code: 'CREDENTIAL_REVOKED', message: 'The credential is revoked.' },
        requestRetrievedAt: '2026-01-01T10:00:02.000Z',
        answeredAt: '2026-01-01T10:00:03.000Z',
      }),
    );
    expect(steps.map((step) => step.title)).toContain('Request fetched by the wallet');
    expect(steps.at(-1)).toMatchObject({
      title: 'Answered by the wallet, and refused',
      at: '2026-01-01T10:00:03.000Z',
      tone: 'bad',
      code: 'CREDENTIAL_REVOKED',
      detail: 'The credential is revoked.',
    });
  });

  it('expired unfetched (at its expiry, not when it was noticed), and a DC API session (never fetched): no fetch step', () => {
    const expired = sessionTimeline(
      session({
        state: 'Error',
        error: { code: 'SESSION_EXPIRED', message: 'expired' },
        updatedAt: '2026-01-01T10:07:00.000Z',
      }),
    );
    expect(expired.map((step) => [step.title, step.at])).toEqual([
      ['Request created (direct_post) for verifier desk', '2026-01-01T10:00:00.000Z'],
      ['Expired before the wallet answered', '2026-01-01T10:05:00.000Z'],
    ]);
    const dcApi = sessionTimeline(session({ responseMode: 'dc_api', state: 'ResponseVerified' }));
    expect(dcApi.map((step) => step.title)).toEqual([
      'Request created (dc_api) for verifier desk',
      'Answered by the wallet and verified',
    ]);
  });

  it('open: the step it waits for is pending until the session expires', () => {
    expect(sessionTimeline(session({ state: 'RequestUriRetrieved' })).at(-1)).toMatchObject({
      title: 'Waiting for the wallet to answer',
      tone: 'pending',
      at: '2026-01-01T10:05:00.000Z',
    });
  });

  it('the presentation data: kept until its deadline, then the claims not retained removed, then purged at the purge job’s time', () => {
    const verified = (presentationData: PresentationSession['presentationData']) =>
      sessionTimeline(
        session({
          state: 'ResponseVerified',
          answeredAt: '2026-01-01T10:00:08.000Z',
          ...(presentationData ? { presentationData } : {}),
        }),
      ).slice(2);
    const day = '2026-01-02T10:00:08.000Z';
    expect(verified({ claimsState: 'full', dataExpiresAt: day })).toEqual([
      expect.objectContaining({ title: 'Presentation data kept until', at: day, tone: 'pending' }),
    ]);
    const grace = '2026-01-01T10:02:00.000Z';
    expect(verified({ claimsState: 'full', dataExpiresAt: day, readExpiresAt: grace })).toEqual([
      expect.objectContaining({ title: 'Claims not marked to retain kept until', at: grace, tone: 'pending' }),
    ]);
    expect(verified({ claimsState: 'retained', dataExpiresAt: day, readExpiresAt: grace })).toEqual([
      expect.objectContaining({ title: 'Claims not marked to retain removed', at: grace, tone: 'neutral' }),
      expect.objectContaining({ title: 'Retained claims kept until', at: day, tone: 'pending' }),
    ]);
    const purgedAt = '2026-01-01T10:02:30.000Z';
    expect(
      verified({ claimsState: 'purged', dataExpiresAt: day, readExpiresAt: grace, claimsPurgedAt: purgedAt }),
    ).toEqual([expect.objectContaining({ title: 'Presentation data purged', at: purgedAt, tone: 'neutral' })]);
    // A deadline passed, the purge job not yet by: the data's lifetime ended at the earlier deadline.
    expect(verified({ claimsState: 'purged', dataExpiresAt: day, readExpiresAt: grace })).toEqual([
      expect.objectContaining({ title: 'Presentation data expired', at: grace }),
    ]);
    expect(verified(undefined)).toEqual([]);
  });
});
