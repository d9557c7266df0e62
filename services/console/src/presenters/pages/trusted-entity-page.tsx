import type { TrustedEntityHistoryEntry } from '@tessera/contracts';
import { credentialTypeLines } from '../../domain/credential-type-lines.js';
import type { TrustedEntityView } from '../../use-cases/load-trusted-entity.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Facts, Pagination, Section, Time } from '../components/display.js';
import { ActionButton, PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import { TrustedEntityStatusBadge } from '../components/trusted-entity-status.js';
import { ValidityBadge } from '../components/validity-badge.js';
import type { PageContext } from '../page-context.js';

export function TrustedEntityPage(props: { context: PageContext; view: TrustedEntityView; now: Date }) {
  const { context, view, now } = props;
  const { ecosystem, entity } = view;
  const registry = `/ecosystems/${encodeURIComponent(ecosystem.id)}/trust-registry`;
  const base = `${registry}/${encodeURIComponent(entity.id)}`;
  const flash = context.flash;
  const withdrawn = entity.status === 'withdrawn';
  return (
    <Layout
      context={context}
      frame={{
        title: entity.name,
        breadcrumbs: [
          { label: 'Ecosystems', href: '/ecosystems' },
          { label: ecosystem.name, href: `/ecosystems/${encodeURIComponent(ecosystem.id)}` },
          { label: 'Trust registry', href: registry },
          { label: entity.name },
        ],
      }}
    >
      <Facts
        items={[
          ['Role', entity.role],
          [
            'Status',
            <>
              <TrustedEntityStatusBadge status={entity.status} /> since <Time at={entity.statusChangedAt} />
            </>,
          ],
          ['Reason', entity.statusReason ?? '—'],
          ['Organisation', entity.orgId ?? 'outside the ecosystem'],
          ['Information', entity.informationUri ? <a href={entity.informationUri}>{entity.informationUri}</a> : '—'],
          [
            'Allowed credential types',
            entity.allowedCredentialTypes.length === 0
              ? '—'
              : entity.allowedCredentialTypes.map((type) => (
                  <div>
                    <code>{type.format === 'dc+sd-jwt' ? type.vct : type.doctype}</code>{' '}
                    <span class="muted">({type.format})</span>
                  </div>
                )),
          ],
          [
            'Registered',
            <>
              <Time at={entity.createDateTime} /> by {entity.createdBy}
            </>,
          ],
        ]}
      />
      <Section title="Certificates" id="certificates">
        {entity.certificates.length === 0 ? (
          <Empty>No current certificate: the entity matches nothing until one is added.</Empty>
        ) : (
          <DataTable
            label="Current certificates"
            columns={['Subject', 'Kind', 'Valid', 'SHA-256 fingerprint', view.lead && !withdrawn ? 'Retire' : null]}
          >
            {entity.certificates.map((certificate) => (
              <tr>
                <td>{certificate.subject}</td>
                <td>{certificate.kind === 'ca' ? 'CA' : 'leaf'}</td>
                <td>
                  <ValidityBadge notAfter={certificate.notAfter} notBefore={certificate.notBefore} now={now} />
                  <div class="muted">
                    <Time at={certificate.notBefore} /> to <Time at={certificate.notAfter} />
                  </div>
                </td>
                <td>
                  <code class="fingerprint">{certificate.fingerprint}</code>
                </td>
                {view.lead && !withdrawn ? (
                  <td>
                    <ActionButton
                      action={`${base}/certificates/${encodeURIComponent(certificate.id)}/retire`}
                      csrfToken={context.csrfToken}
                      label="Retire"
                      accessibleLabel={`Retire the certificate ${certificate.subject}`}
                      danger
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </DataTable>
        )}
        {view.lead && !withdrawn ? (
          <PostForm action={`${base}/certificates`} csrfToken={context.csrfToken} label="Add certificates">
            <TextArea
              name="certificates"
              label="Add certificates (PEM)"
              rows={6}
              required
              value={valueOf(flash, 'certificates')}
              problem={problemAt(flash, '/certificates')}
              code
            />
            <button type="submit">Add the certificates</button>
          </PostForm>
        ) : null}
      </Section>
      {view.lead && !withdrawn ? (
        <div class="columns">
          <Section title="Change the status" id="status">
            <PostForm action={`${base}/status`} csrfToken={context.csrfToken} label="Change the status">
              <SelectField
                name="status"
                label="New status"
                required
                value={valueOf(flash, 'status', entity.status === 'active' ? 'suspended' : 'active')}
                problem={problemAt(flash, '/status')}
                options={[
                  { value: 'active', label: 'active' },
                  { value: 'suspended', label: 'suspended' },
                  { value: 'withdrawn', label: 'withdrawn (final)' },
                ]}
              />
              <TextArea
                name="reason"
                label="Reason"
                required
                rows={2}
                value={valueOf(flash, 'reason')}
                problem={problemAt(flash, '/reason')}
                hint="Recorded in the history and shown to members (1 to 500 characters)."
              />
              <button type="submit">Change the status</button>
            </PostForm>
          </Section>
          <Section title="Edit" id="edit">
            <PostForm action={base} csrfToken={context.csrfToken} label="Edit the entity">
              <TextField
                name="name"
                label="Name"
                required
                value={valueOf(flash, 'name', entity.name)}
                problem={problemAt(flash, '/name')}
              />
              <TextField
                name="informationUri"
                label="Information address"
                type="url"
                value={valueOf(flash, 'informationUri', entity.informationUri ?? '')}
                problem={problemAt(flash, '/informationUri')}
                hint="Empty removes it."
              />
              <TextArea
                name="allowedCredentialTypes"
                label="Allowed credential types"
                rows={3}
                value={valueOf(flash, 'allowedCredentialTypes', credentialTypeLines(entity.allowedCredentialTypes))}
                problem={problemAt(flash, '/allowedCredentialTypes')}
                code
              />
              <button type="submit">Save</button>
            </PostForm>
          </Section>
        </div>
      ) : null}
      <Section title="History" id="history">
        <ol class="timeline">
          {view.history.data.map((change) => (
            <li class={change.change === 'status-changed' && change.to?.status !== 'active' ? 'bad' : 'good'}>
              <strong>{describeChange(change)}</strong>
              {change.reason ? <div>Reason: {change.reason}</div> : null}
              <span class="when">
                <Time at={change.at} /> by {change.actor}, list sequence {change.sequence}
              </span>
            </li>
          ))}
        </ol>
        <Pagination page={view.history} href={(n) => `${base}?history=${n}`} label="History" />
      </Section>
    </Layout>
  );
}

function describeChange(change: TrustedEntityHistoryEntry): string {
  const certificates = (side: Record<string, unknown> | null) =>
    Array.isArray(side?.certificates)
      ? (side.certificates as Array<{ subject?: string }>).map((c) => c.subject ?? '?').join('; ')
      : '';
  switch (change.change) {
    case 'created':
      return 'Registered';
    case 'updated':
      return `Changed ${Object.keys(change.to ?? {}).join(', ')}`;
    case 'certificate-added':
      return `Certificate added: ${certificates(change.to)}`;
    case 'certificate-retired':
      return `Certificate retired: ${certificates(change.from)}`;
    case 'status-changed':
      return `Status ${String(change.from?.status)} → ${String(change.to?.status)}`;
  }
}
