import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { loadVerifierConfig, webhookTargetPolicyOf } from '../../src/config.js';
import { generateWebhookSecret, signWebhook } from '../../src/crypto/webhook-signature.js';
import { webhookEventBody } from '../../src/domain/webhook-events.js';
import { nextWebhookAttempt, webhookBackoffMs } from '../../src/domain/webhook-retry.js';
import { checkWebhookUrl } from '../../src/network/webhook-url.js';

describe('webhook signatures', () => {
  it('match the standardwebhooks library for the same secret, id, time and body', () => {
    for (let run = 0; run < 20; run++) {
      const secret = generateWebhookSecret();
      const id = crypto.randomUUID();
      const timestamp = 1_700_000_000 + run * 7919;
      const body = JSON.stringify({ type: 'presentation.verified', id, note: 'é ✓ "quoted"', run });
      expect(signWebhook({ secret, id, timestamp, body })).toBe(
        new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
      );
    }
  });

  it('secrets are whsec_ + base64 of 32 fresh random bytes', () => {
    const secrets = Array.from({ length: 50 }, generateWebhookSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(50);
  });

  it('refuses to sign with something that is not a whsec_ secret', () => {
    expect(() => signWebhook({ secret: 'abc', id: 'x', timestamp: 1, body: '{}' })).toThrow(/whsec_/);
  });

  it('the body is the event in the documented field order', () => {
    const body = webhookEventBody({
      id: '0b7c4f1e-6a7e-4a8e-9d41-5f0c2b1f0a11',
      eventType: 'presentation.expired',
      sessionId: '6d0a3c8e-2f4b-4e55-8f1e-0c9a7b3d2e10',
      publicVerifierId: 'desk',
      sessionState: 'Error',
      occurredAt: new Date('2026-01-02T03:04:05.678Z'),
    });
    expect(body).toBe(
      '{"type":"presentation.expired","id":"0b7c4f1e-6a7e-4a8e-9d41-5f0c2b1f0a11","sessionId":"6d0a3c8e-2f4b-4e55-8f1e-0c9a7b3d2e10","verifierId":"desk","state":"Error","occurredAt":"2026-01-02T03:04:05.678Z"}',
    );
  });
});

describe('webhook retry schedule', () => {
  const policy = { baseMs: 5000, maxDelayMs: 3_600_000, periodMs: 86_400_000 };
  const retryFrom = new Date('2026-01-01T00:00:00Z');

  it('first retry after the base, doubling, capped', () => {
    expect([1, 2, 3, 4, 5, 10, 11, 12, 50, 5000].map((failures) => webhookBackoffMs(policy, failures))).toEqual([
      5000, 10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('jitter only stretches a delay, by at most a quarter', () => {
    const failedAt = new Date(retryFrom.getTime() + 1000);
    const at = (random: number, failures: number) => {
      const next = nextWebhookAttempt({ policy, failedAt, retryFrom, failures, random: () => random });
      if (next.giveUp) throw new Error('gave up');
      return next.at.getTime() - failedAt.getTime();
    };
    expect(at(0, 1)).toBe(5000);
    expect(at(0.999999, 1)).toBe(6250);
    expect(at(0.5, 3)).toBe(22_500);
  });

  it('keeps retrying for the whole period and gives up at the first failure after it', () => {
    let failedAt = retryFrom;
    let failures = 0;
    const attempts: Date[] = [];
    for (;;) {
      failures += 1;
      const next = nextWebhookAttempt({ policy, failedAt, retryFrom, failures, random: Math.random });
      if (next.giveUp) break;
      attempts.push(next.at);
      failedAt = next.at;
    }
    const last = failedAt.getTime() - retryFrom.getTime();
    // The last attempt is at or after 24 h, and within one capped (jittered) delay of it.
    expect(last).toBeGreaterThanOrEqual(86_400_000);
    expect(last).toBeLessThan(86_400_000 + 3_600_000 * 1.25);
    // About 13 doublings up to the cap, then hourly: some 30–40 attempts a day.
    expect(attempts.length).toBeGreaterThan(25);
    expect(attempts.length).toBeLessThan(45);
  });
});

describe('webhook targets and configuration', () => {
  const production = { allowHttp: false, denyPrivateAddresses: true };

  it('accepts https URLs with paths and queries; refuses the rest with a reason', () => {
    expect(checkWebhookUrl('https://rp.example:8443/hooks/tessera?token=abc', production)).toEqual([]);
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hooks', production)).toEqual([]);
    expect(checkWebhookUrl('http://rp.example/hooks', production)[0]!.message).toMatch(/WEBHOOK_ALLOW_HTTP/);
    expect(checkWebhookUrl('http://rp.example/hooks', { allowHttp: true, denyPrivateAddresses: true })).toEqual([]);
    expect(checkWebhookUrl('http://127.0.0.1:8080/', { allowHttp: true, denyPrivateAddresses: false })).toEqual([]);
    expect(checkWebhookUrl('https://0.0.0.0/', production)[0]!.message).toMatch(/unspecified/);
    expect(checkWebhookUrl('javascript:alert(1)', production)[0]!.message).toMatch(/https/);
    expect(checkWebhookUrl('/relative', production)[0]!.message).toMatch(/absolute/);
  });

  it('production and test refuse http and non-public addresses by default; development allows both; each can be set', () => {
    expect(webhookTargetPolicyOf({ NODE_ENV: 'production' })).toEqual({ allowHttp: false, denyPrivateAddresses: true });
    expect(webhookTargetPolicyOf({ NODE_ENV: 'test' })).toEqual({ allowHttp: false, denyPrivateAddresses: true });
    expect(webhookTargetPolicyOf({ NODE_ENV: 'development' })).toEqual({
      allowHttp: true,
      denyPrivateAddresses: false,
    });
    expect(webhookTargetPolicyOf({ NODE_ENV: 'production', WEBHOOK_DENY_PRIVATE_ADDRESSES: false })).toEqual({
      allowHttp: false,
      denyPrivateAddresses: false,
    });
  });

  it('reads the webhook settings with their defaults, and refuses a cap below the base', () => {
    const env = { NODE_ENV: 'development' };
    const config = loadVerifierConfig(env);
    expect(config).toMatchObject({
      WEBHOOK_RETRY_BASE_MS: 5000,
      WEBHOOK_RETRY_MAX_DELAY_MS: 3_600_000,
      WEBHOOK_RETRY_PERIOD_MS: 86_400_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_POLL_INTERVAL_MS: 1000,
      WEBHOOK_CONCURRENCY: 10,
      SESSION_EXPIRY_SWEEP_MS: 5000,
    });
    expect(() =>
      loadVerifierConfig({ ...env, WEBHOOK_RETRY_BASE_MS: '10000', WEBHOOK_RETRY_MAX_DELAY_MS: '5000' }),
    ).toThrow(/WEBHOOK_RETRY_MAX_DELAY_MS/);
    expect(() => loadVerifierConfig({ ...env, WEBHOOK_DENY_PRIVATE_ADDRESSES: 'maybe' })).toThrow(
      /WEBHOOK_DENY_PRIVATE_ADDRESSES/,
    );
  });
});
