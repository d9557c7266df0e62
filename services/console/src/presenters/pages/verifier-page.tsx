import { WEBHOOK_EVENT_TYPES, type WebhookDelivery } from '@tessera/contracts';
import type { VerifierView } from '../../use-cases/load-verifier.js';
import { ClientDisplay } from '../components/client-display.js';
import { Badge, Empty, Facts, Pagination, Section, Time, TableScroll } from '../components/display.js';
import { ActionButton, ChoiceGroup, PostForm, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

const DELIVERY_TONES = { delivered: 'good', pending: 'warn', failed: 'bad' } as const;

export function VerifierPage(props: { context: PageContext; orgId: string; view: VerifierView }) {
  const { context, orgId, view } = props;
  const { verifier, webhook } = view;
  const org = `/orgs/${encodeURIComponent(orgId)}`;
  const base = `${org}/verifiers/${encodeURIComponent(verifier.verifierId)}`;
  const flash = context.flash;
  return (
    <Layout
      context={context}
      frame={{
        title: `Verifier ${verifier.verifierId}`,
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: org },
          { label: 'Verifiers', href: `${org}/verifiers` },
          { label: verifier.verifierId },
        ],
      }}
    >
      <div class="columns">
        <Section title="What wallets show" id="display">
          <div class="wallet-preview">
            <p class="muted">A wallet asks the person:</p>
            <ClientDisplay verifierId={verifier.verifierId} metadata={verifier.clientMetadata} />
            <p>wants to see some of your credentials.</p>
          </div>
        </Section>
        <Section title="Display data" id="metadata">
          <PostForm action={base} csrfToken={context.csrfToken} label="Display data">
            <TextField
              name="clientName"
              label="Display name"
              value={valueOf(flash, 'clientName', verifier.clientMetadata?.client_name ?? '')}
              problem={problemAt(flash, '/clientMetadata/client_name')}
            />
            <TextField
              name="logoUri"
              label="Logo address"
              type="url"
              value={valueOf(flash, 'logoUri', verifier.clientMetadata?.logo_uri ?? '')}
              problem={problemAt(flash, '/clientMetadata/logo_uri')}
            />
            <button type="submit">Save the display data</button>
          </PostForm>
          <ActionButton action={`${base}/delete`} csrfToken={context.csrfToken} label="Delete the verifier" danger />
          <p class="hint">A verifier with open sessions cannot be deleted.</p>
        </Section>
      </div>
      <Section title="Webhook" id="webhook">
        {webhook ? (
          <Facts
            items={[
              ['Address', <code>{webhook.url}</code>],
              ['Events', webhook.events.join(', ')],
              ['Since', <Time at={webhook.createdAt} />],
              ['Changed', <Time at={webhook.updatedAt} />],
            ]}
          />
        ) : (
          <Empty>No webhook: the verifier's sessions are followed by reading them.</Empty>
        )}
        <PostForm action={`${base}/webhook`} csrfToken={context.csrfToken} label="Webhook">
          <TextField
            name="url"
            label="Address the events are sent to"
            type="url"
            required
            value={valueOf(flash, 'url', webhook?.url ?? '')}
            problem={problemAt(flash, '/url')}
            hint="https, reachable from the verifier; signed per Standard Webhooks."
          />
          <ChoiceGroup
            name="events"
            label="Events"
            type="checkbox"
            problem={problemAt(flash, '/events')}
            options={WEBHOOK_EVENT_TYPES.map((event) => ({ value: event, label: event }))}
            checked={webhook?.events ?? [...WEBHOOK_EVENT_TYPES]}
          />
          <button type="submit">{webhook ? 'Save the webhook' : 'Add the webhook'}</button>
        </PostForm>
        {webhook ? (
          <p>
            <ActionButton
              action={`${base}/webhook/rotate-secret`}
              csrfToken={context.csrfToken}
              label="Rotate the signing secret"
            />
            <ActionButton
              action={`${base}/webhook/delete`}
              csrfToken={context.csrfToken}
              label="Remove the webhook"
              danger
            />
          </p>
        ) : null}
      </Section>
      {view.deliveries ? (
        <Section title="Deliveries" id="deliveries">
          {view.deliveries.data.length === 0 ? (
            <Empty>Nothing sent yet: a delivery is made when one of the verifier's sessions ends.</Empty>
          ) : (
            <TableScroll label="Webhook deliveries, newest first">
              <table>
                <caption class="visually-hidden">Webhook deliveries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Session</th>
                    <th scope="col">Status</th>
                    <th scope="col">Last attempt</th>
                    <th scope="col">Redeliver</th>
                  </tr>
                </thead>
                <tbody>
                  {view.deliveries.data.map((delivery) => (
                    <tr>
                      <td>
                        {delivery.event.type}
                        <div class="muted">
                          <Time at={delivery.event.occurredAt} />
                        </div>
                      </td>
                      <td>
                        <a href={`${org}/sessions/${encodeURIComponent(delivery.event.sessionId)}`}>
                          {delivery.event.sessionId.slice(0, 8)}
                        </a>
                      </td>
                      <td>
                        <Badge tone={DELIVERY_TONES[delivery.status]}>{delivery.status}</Badge>
                        <div class="muted">
                          {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
                          {delivery.nextAttemptAt ? (
                            <>
                              , next <Time at={delivery.nextAttemptAt} />
                            </>
                          ) : null}
                        </div>
                      </td>
                      <td>{lastAttempt(delivery)}</td>
                      <td>
                        <ActionButton
                          action={`${base}/webhook/deliveries/${encodeURIComponent(delivery.id)}/redeliver`}
                          csrfToken={context.csrfToken}
                          label="Redeliver"
                          accessibleLabel={`Redeliver ${delivery.event.type} of session ${delivery.event.sessionId.slice(0, 8)}`}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          <Pagination page={view.deliveries} href={(n) => `${base}?deliveries=${n}#deliveries`} label="Deliveries" />
        </Section>
      ) : null}
    </Layout>
  );
}

function lastAttempt(delivery: WebhookDelivery) {
  const attempt = delivery.attempts.at(-1);
  if (!attempt) return <span class="muted">none yet</span>;
  return (
    <>
      {attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : (attempt.error ?? 'no answer')}
      <span class="muted">
        {' '}
        ({attempt.durationMs} ms, <Time at={attempt.attemptedAt} />)
      </span>
    </>
  );
}
