import { WEBHOOK_EVENT_TYPES, type RegistrationCertificate, type WebhookDelivery } from '@tessera/contracts';
import type { VerifierView } from '../../use-cases/load-verifier.js';
import { ClientDisplay } from '../components/client-display.js';
import { DataTable } from '../components/data-table.js';
import { Badge, Empty, Facts, Pagination, Section, Time } from '../components/display.js';
import { ActionButton, ChoiceGroup, PostForm, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

const DELIVERY_TONES = { delivered: 'good', pending: 'warn', failed: 'bad' } as const;
const REGISTRATION_TONES = { valid: 'good', expiring: 'warn', expired: 'bad' } as const;
const REGISTRATION_FORMS = {
  'ts119475-v1.2.1': 'ETSI TS 119 475 V1.2.1',
  'ts119475-v1.1.1': 'ETSI TS 119 475 V1.1.1',
  'rc-rp': 'rc-rp+jwt (before TS 119 475)',
} as const;

export function VerifierPage(props: {
  context: PageContext;
  orgId: string;
  view: VerifierView;
  /** Owners and admins upload and remove registration certificates (the verifier refuses the others anyway). */
  manageIdentity: boolean;
}) {
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
      <Section title="Settings" id="settings">
        <PostForm action={`${base}/settings`} csrfToken={context.csrfToken} label="Settings">
          <ChoiceGroup
            name="overAskingPolicy"
            label="A query asking for more than the registration certificate registered"
            type="radio"
            problem={problemAt(flash, '/overAskingPolicy')}
            options={[
              { value: 'refuse', label: 'Refuse it', hint: 'The session or template is refused (OVER_ASKING).' },
              {
                value: 'warn',
                label: 'Allow it and list what a wallet will flag',
                hint: 'The session is created; what it asks beyond the registration is shown on it.',
              },
            ]}
            checked={[valueOf(flash, 'overAskingPolicy', verifier.overAskingPolicy)!]}
          />
          <ChoiceGroup
            name="strictHaip"
            label="HAIP 1.0"
            type="checkbox"
            problem={problemAt(flash, '/strictHaip')}
            options={[
              {
                value: 'on',
                label: 'Only sessions HAIP 1.0 allows',
                hint: 'Encrypted answers (direct_post.jwt, dc_api.jwt) and requests signed with the P-256 access certificate under x509_hash; others are refused (NOT_HAIP_COMPLIANT).',
              },
            ]}
            checked={verifier.strictHaip ? ['on'] : []}
          />
          <button type="submit">Save the settings</button>
        </PostForm>
      </Section>
      <Section title="Registration certificate" id="registration">
        {view.registrationCertificate ? (
          <RegistrationSummary certificate={view.registrationCertificate} />
        ) : (
          <Empty>
            No registration certificate: requests carry no <code>verifier_info</code>, and queries are not judged
            against a registration.
          </Empty>
        )}
        {props.manageIdentity ? (
          <>
            <PostForm
              action={`${base}/registration-certificate`}
              csrfToken={context.csrfToken}
              label="Upload a registration certificate"
            >
              <TextArea
                name="registrationCertificate"
                label={view.registrationCertificate ? 'Replace it with' : 'Registration certificate (JWT)'}
                required
                rows={5}
                code
                value={valueOf(flash, 'registrationCertificate')}
                problem={problemAt(flash, '/registrationCertificate')}
                hint="The JWT your registrar issued (rc-wrp+jwt). It must name the organisation identifier of your P-256 access certificate."
              />
              <button type="submit">Upload the registration certificate</button>
            </PostForm>
            {view.registrationCertificate ? (
              <ActionButton
                action={`${base}/registration-certificate/delete`}
                csrfToken={context.csrfToken}
                label="Remove the registration certificate"
                danger
              />
            ) : null}
          </>
        ) : (
          <p class="hint">Owners and administrators of the organisation upload registration certificates.</p>
        )}
      </Section>
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
            <DataTable
              label="Webhook deliveries, newest first"
              columns={['Event', 'Session', 'Status', 'Last attempt', 'Redeliver']}
            >
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
            </DataTable>
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

/** What the registrar registered: who the relying party is, what it may ask for and why, and until when. */
function RegistrationSummary(props: { certificate: RegistrationCertificate }) {
  const { certificate } = props;
  const party = certificate.relyingParty;
  return (
    <>
      <Facts
        items={[
          [
            'Status',
            <>
              <Badge tone={REGISTRATION_TONES[certificate.status]}>{certificate.status}</Badge>{' '}
              {certificate.boundToAccessCertificate ? null : (
                <Badge tone="warn">not bound to the access certificate in force</Badge>
              )}
            </>,
          ],
          ['Relying party', `${party.legalName ?? party.name ?? '—'} (${party.identifier})`],
          ...(party.country ? ([['Country', party.country]] as Array<[string, string]>) : []),
          ...(certificate.intermediary
            ? ([
                ['Intermediary', `${certificate.intermediary.name ?? '—'} (${certificate.intermediary.identifier})`],
              ] as Array<[string, string]>)
            : []),
          ['Registrar', certificate.registrar.name],
          ['Form', REGISTRATION_FORMS[certificate.form]],
          [
            'Valid',
            <>
              <Time at={certificate.notBefore} /> to <Time at={certificate.notAfter} />
            </>,
          ],
          ['Uploaded', <Time at={certificate.updatedAt} />],
        ]}
      />
      <h3>Intended uses</h3>
      {certificate.intendedUses.length === 0 ? (
        <Empty>None registered.</Empty>
      ) : (
        <ul class="intended-uses">
          {certificate.intendedUses.map((use) => (
            <li>
              {use.id ? <p class="muted">Intended use {use.id}</p> : null}
              {use.purpose.map((purpose) => (
                <p lang={purpose.lang}>
                  {purpose.value} <span class="muted">({purpose.lang})</span>
                </p>
              ))}
              <ul>
                {use.credentials.map((credential) => (
                  <li>
                    <code>{credential.vct ?? credential.doctype ?? credential.format}</code> ({credential.format}):{' '}
                    {credential.claims === 'all'
                      ? 'every claim'
                      : credential.claims.map((path) => path.map((part) => part ?? '*').join('.')).join(', ') ||
                        'no claim'}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>The certificate as uploaded (sent as verifier_info)</summary>
        <pre>{certificate.registrationCertificate}</pre>
      </details>
    </>
  );
}
