import type { PresentationSession, WebhookDelivery } from '@tessera/contracts';

/** One chart's data, which its table shows too: rows of labels, one value per series. */
export interface ChartData {
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
}

const HOUR = 3_600_000;

/** `2026-11-24 10:00`: the start of an hour bucket, UTC. */
function hourLabel(start: number): string {
  return `${new Date(start).toISOString().slice(0, 13).replace('T', ' ')}:00`;
}

/** The 24 hour buckets ending with the current hour. */
function lastHours(now: Date): number[] {
  const current = Math.floor(now.getTime() / HOUR) * HOUR;
  return Array.from({ length: 24 }, (_, index) => current - (23 - index) * HOUR);
}

/** What became of a session, for the outcome chart. */
export function outcomeOf(session: PresentationSession): 'verified' | 'refused' | 'expired' | 'open' {
  if (session.state === 'ResponseVerified') return 'verified';
  if (session.state === 'Error') return session.error?.code === 'SESSION_EXPIRED' ? 'expired' : 'refused';
  return 'open';
}

/** Sessions ended per hour by outcome (the hour it ended in), over the last 24 hours. */
export function verificationsPerHour(sessions: readonly PresentationSession[], now: Date): ChartData {
  const hours = lastHours(now);
  const outcomes = ['verified', 'refused', 'expired'] as const;
  const counts = Object.fromEntries(outcomes.map((outcome) => [outcome, hours.map(() => 0)])) as Record<
    (typeof outcomes)[number],
    number[]
  >;
  for (const session of sessions) {
    const outcome = outcomeOf(session);
    if (outcome === 'open') continue;
    const index = hours.indexOf(Math.floor(Date.parse(session.updatedAt) / HOUR) * HOUR);
    if (index >= 0) counts[outcome][index]! += 1;
  }
  return {
    labels: hours.map(hourLabel),
    series: outcomes.map((outcome) => ({ name: outcome, values: counts[outcome] })),
  };
}

/** Refused sessions by the code of the check that refused them, most frequent first. */
export function refusalsByCode(sessions: readonly PresentationSession[]): ChartData {
  const counts = new Map<string, number>();
  for (const session of sessions)
    if (session.state === 'Error') {
      const code = session.error?.code ?? 'UNKNOWN';
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { labels: sorted.map(([code]) => code), series: [{ name: 'refusals', values: sorted.map(([, n]) => n) }] };
}

/** Webhook deliveries per verifier by status. */
export function webhookDeliveries(deliveries: ReadonlyMap<string, readonly WebhookDelivery[]>): ChartData {
  const verifiers = [...deliveries.keys()].sort();
  const statuses = ['delivered', 'pending', 'failed'] as const;
  return {
    labels: verifiers,
    series: statuses.map((status) => ({
      name: status,
      values: verifiers.map(
        (verifier) => deliveries.get(verifier)!.filter((delivery) => delivery.status === status).length,
      ),
    })),
  };
}

/** The median of some numbers (undefined for none). */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * How long verified sessions took, from the request's creation to its verification (the
 * time a person waits at the counter, wallet included), as the median per hour in
 * seconds (0 for an hour without verifications), and over the whole day.
 */
export function medianVerificationTime(
  sessions: readonly PresentationSession[],
  now: Date,
): { chart: ChartData; overallSeconds?: number } {
  const hours = lastHours(now);
  const durations = hours.map(() => [] as number[]);
  const all: number[] = [];
  for (const session of sessions) {
    if (session.state !== 'ResponseVerified') continue;
    const verifiedAt = Date.parse(session.answeredAt ?? session.updatedAt);
    const seconds = (verifiedAt - Date.parse(session.createdAt)) / 1000;
    const index = hours.indexOf(Math.floor(verifiedAt / HOUR) * HOUR);
    if (index < 0) continue;
    durations[index]!.push(seconds);
    all.push(seconds);
  }
  const overall = median(all);
  return {
    chart: {
      labels: hours.map(hourLabel),
      series: [{ name: 'median seconds', values: durations.map((values) => round(median(values) ?? 0)) }],
    },
    ...(overall !== undefined ? { overallSeconds: round(overall) } : {}),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;
