import type { Overview } from '../../use-cases/load-overview.js';
import { CHART_JS_SCRIPT, scriptPath } from '../asset-paths.js';
import { ChartBlock } from '../components/chart-block.js';
import { Facts } from '../components/display.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function OverviewPage(props: { context: PageContext; orgId: string; overview: Overview }) {
  const { context, orgId, overview } = props;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const verified =
    overview.perHour.series.find((series) => series.name === 'verified')?.values.reduce((a, b) => a + b, 0) ?? 0;
  const refused = overview.refusals.series[0]?.values.reduce((a, b) => a + b, 0) ?? 0;
  return (
    <Layout
      context={context}
      frame={{
        title: `Organisation ${orgId}`,
        breadcrumbs: [{ label: `Organisation ${orgId}` }],
        vendorScripts: [CHART_JS_SCRIPT],
        scripts: [scriptPath('charts')],
      }}
    >
      <h2 class="visually-hidden">The last 24 hours</h2>
      <Facts
        items={[
          [
            'Sessions in the last 24 hours',
            `${overview.sessionCount}${overview.truncated ? ' (the newest only: there were more)' : ''}`,
          ],
          ['Verified', String(verified)],
          ['Refused or expired', String(refused)],
          ['Median time to verified', overview.medianSeconds !== undefined ? `${overview.medianSeconds} s` : '—'],
        ]}
      />
      <p>
        <a href={`${org}/sessions`}>Sessions</a> · <a href={`${org}/sessions/new`}>New presentation request</a>
      </p>
      <ChartBlock
        id="per-hour"
        title="Verifications per hour by outcome"
        summary="Sessions that ended in each hour (UTC): verified, refused by a check, or expired unanswered."
        kind="stacked-bar"
        data={overview.perHour}
        labelHeading="Hour (UTC)"
      />
      <ChartBlock
        id="refusals"
        title="Refusals by code"
        summary="Why sessions ended in Error: the code names the check that refused (or SESSION_EXPIRED, WALLET_ERROR)."
        kind="horizontal-bar"
        data={overview.refusals}
        labelHeading="Code"
      />
      <ChartBlock
        id="deliveries"
        title="Webhook delivery success"
        summary="The newest deliveries of each verifier's webhook, by status."
        kind="stacked-bar"
        data={overview.deliveries}
        labelHeading="Verifier"
      />
      <ChartBlock
        id="median-time"
        title="Median verification time"
        summary="Per hour, the median time from a request's creation to its verification, in seconds (0: none verified)."
        kind="line"
        data={overview.medianTime}
        labelHeading="Hour (UTC)"
      />
    </Layout>
  );
}
