import type { PresentationSession, WebhookDelivery } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import {
  median,
  medianVerificationTime,
  refusalsByCode,
  verificationsPerHour,
  webhookDeliveries,
} from '../../src/domain/overview.js';

const now = new Date('2026-01-02T10:30:00.000Z');
let counter = 0;
const session = (
  state: PresentationSession['state'],
  createdAt: string,
  updatedAt: string,
  code?: string,
): PresentationSession => ({
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  authorizationRequestId: 'r',
  publicVerifierId: 'desk',
  clientId: 'c',
  nonce: 'n',
  payloadState: 'p',
  responseMode: 'direct_post',
  state,
  ...(code ? { error: { code, message: code } } : {}),
  createdAt,
  updatedAt,
  expiresAt: updatedAt,
});

const sessions = [
  session('ResponseVerified', '2026-01-02T10:00:00.000Z', '2026-01-02T10:00:04.000Z'),
  session('ResponseVerified', '2026-01-02T10:10:00.000Z', '2026-01-02T10:10:10.000Z'),
  session('ResponseVerified', '2026-01-02T09:59:00.000Z', '2026-01-02T09:59:06.000Z'),
  session('Error', '2026-01-02T10:01:00.000Z', '2026-01-02T10:01:03.000Z', 'CREDENTIAL_REVOKED'),
  session('Error', '2026-01-02T10:02:00.000Z', '2026-01-02T10:02:03.000Z', 'CREDENTIAL_REVOKED'),
  session('Error', '2026-01-02T08:00:00.000Z', '2026-01-02T08:05:00.000Z', 'SESSION_EXPIRED'),
  session('Error', '2026-01-02T07:00:00.000Z', '2026-01-02T07:00:01.000Z', 'ISSUER_NOT_TRUSTED'),
  session('RequestCreated', '2026-01-02T10:20:00.000Z', '2026-01-02T10:20:00.000Z'),
  // Older than the 24 hours charted.
  session('ResponseVerified', '2025-12-31T10:00:00.000Z', '2025-12-31T10:00:02.000Z'),
];

describe("the overview's figures", () => {
  it('counts sessions per hour by outcome in the hour they ended, over 24 hours ending with the current one', () => {
    const chart = verificationsPerHour(sessions, now);
    expect(chart.labels).toHaveLength(24);
    expect(chart.labels.at(-1)).toBe('2026-01-02 10:00');
    expect(chart.labels[0]).toBe('2026-01-01 11:00');
    const at = (label: string) =>
      Object.fromEntries(chart.series.map((series) => [series.name, series.values[chart.labels.indexOf(label)]]));
    expect(at('2026-01-02 10:00')).toEqual({ verified: 2, refused: 2, expired: 0 });
    expect(at('2026-01-02 09:00')).toEqual({ verified: 1, refused: 0, expired: 0 });
    expect(at('2026-01-02 08:00')).toEqual({ verified: 0, refused: 0, expired: 1 });
    expect(chart.series.find((series) => series.name === 'verified')!.values.reduce((a, b) => a + b)).toBe(3);
  });

  it('counts refusals by code, most frequent first', () => {
    expect(refusalsByCode(sessions)).toEqual({
      labels: ['CREDENTIAL_REVOKED', 'ISSUER_NOT_TRUSTED', 'SESSION_EXPIRED'],
      series: [{ name: 'refusals', values: [2, 1, 1] }],
    });
  });

  it('takes the median time to verified per hour and over the day', () => {
    const { chart, overallSeconds } = medianVerificationTime(sessions, now);
    expect(chart.series[0]!.values.at(-1)).toBe(7);
    expect(chart.series[0]!.values.at(-2)).toBe(6);
    expect(overallSeconds).toBe(6);
    expect(median([])).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
  });

  it('counts webhook deliveries per verifier by status', () => {
    const delivery = (status: WebhookDelivery['status']) => ({ status }) as WebhookDelivery;
    expect(
      webhookDeliveries(
        new Map([
          ['till', [delivery('delivered'), delivery('failed'), delivery('delivered')]],
          ['desk', [delivery('pending')]],
        ]),
      ),
    ).toEqual({
      labels: ['desk', 'till'],
      series: [
        { name: 'delivered', values: [0, 2] },
        { name: 'pending', values: [1, 0] },
        { name: 'failed', values: [0, 1] },
      ],
    });
  });
});
