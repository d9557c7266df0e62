import type { PresentationSession, WebhookDelivery } from '@tessera/contracts';
import type { Clock } from '@tessera/service-kit';
import {
  medianVerificationTime,
  refusalsByCode,
  verificationsPerHour,
  webhookDeliveries,
  type ChartData,
} from '../domain/overview.js';
import { succeeded, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadOverviewDeps {
  verifier: Pick<VerifierApi, 'listSessions' | 'listVerifiers' | 'listWebhookDeliveries'>;
  clock: Clock;
  /** The newest sessions read at most (pages of 100). */
  maxSessions: number;
}

export interface Overview {
  /** Sessions of the last 24 hours the figures are computed from. */
  sessionCount: number;
  /** More sessions than `maxSessions` were created in the window: the figures cover the newest only. */
  truncated: boolean;
  perHour: ChartData;
  refusals: ChartData;
  deliveries: ChartData;
  medianTime: ChartData;
  medianSeconds?: number;
}

const DAY = 86_400_000;

/**
 * The organisation's last 24 hours, computed from the verifier's own API: its session
 * list (`createdAfter` a day ago, newest first) and each verifier's webhook deliveries
 * (the newest 100). The verifier has no statistics route, so these are counts over
 * what the list returns.
 */
export async function loadOverview(
  deps: LoadOverviewDeps,
  input: { token: string; orgId: string },
): Promise<ServiceResult<Overview>> {
  const { token, orgId } = input;
  const now = deps.clock();
  const createdAfter = new Date(now.getTime() - DAY).toISOString();
  const sessions: PresentationSession[] = [];
  let truncated = false;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await deps.verifier.listSessions(token, orgId, { pageNumber, pageSize: 100, createdAfter });
    if (!page.ok) return page;
    sessions.push(...page.value.data);
    if (pageNumber >= page.value.totalPages) break;
    if (sessions.length >= deps.maxSessions) {
      truncated = true;
      break;
    }
  }
  const verifiers = await deps.verifier.listVerifiers(token, orgId, { pageSize: 100 });
  if (!verifiers.ok) return verifiers;
  const deliveries = new Map<string, WebhookDelivery[]>();
  await Promise.all(
    verifiers.value.data.map(async (verifier) => {
      const list = await deps.verifier.listWebhookDeliveries(token, orgId, verifier.verifierId, { pageSize: 100 });
      // A verifier without a webhook has no deliveries to chart.
      if (list.ok) deliveries.set(verifier.verifierId, list.value.data);
    }),
  );
  const median = medianVerificationTime(sessions, now);
  return succeeded({
    sessionCount: sessions.length,
    truncated,
    perHour: verificationsPerHour(sessions, now),
    refusals: refusalsByCode(sessions),
    deliveries: webhookDeliveries(deliveries),
    medianTime: median.chart,
    ...(median.overallSeconds !== undefined ? { medianSeconds: median.overallSeconds } : {}),
  });
}
