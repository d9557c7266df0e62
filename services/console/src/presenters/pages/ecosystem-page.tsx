import type { EcosystemView } from '../../use-cases/load-ecosystem.js';
import { DataTable } from '../components/data-table.js';
import { Badge, Empty, Facts, Pagination, Section, Time } from '../components/display.js';
import { ChoiceGroup, PostForm, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { InvitationStatusBadge } from '../components/invitation-status.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function EcosystemPage(props: { context: PageContext; view: EcosystemView }) {
  const { context, view } = props;
  const { entry } = view;
  const base = `/ecosystems/${encodeURIComponent(entry.id)}`;
  const flash = context.flash;
  return (
    <Layout
      context={context}
      frame={{ title: entry.name, breadcrumbs: [{ label: 'Ecosystems', href: '/ecosystems' }, { label: entry.name }] }}
    >
      <Facts
        items={[
          ['Your role', <Badge tone={view.lead ? 'info' : 'neutral'}>{entry.role}</Badge>],
          ['Led by', `${entry.leadOrg.name} (${entry.leadOrg.id})`],
          ['Description', entry.description || '—'],
          ['Formed', <Time at={entry.createDateTime} />],
          ['Trust registry', <a href={`${base}/trust-registry`}>Trusted issuers and verifiers</a>],
        ]}
      />
      <Section title="Signed trust list" id="signed-list">
        {view.signedList ? (
          <Facts
            items={[
              ['Sequence', String(view.signedList.sequence)],
              ['Issued', <Time at={view.signedList.issuedAt} />],
              ['Next update', <Time at={view.signedList.nextUpdate} />],
              ['Entities listed', String(view.signedList.entities)],
            ]}
          />
        ) : (
          <Empty>The signed list could not be read just now.</Empty>
        )}
        <p>
          Who may read the signed list:{' '}
          <strong>{view.trustListPublic ? 'anyone (public)' : 'the lead and active members'}</strong>
        </p>
        <p>
          Trust policy of intent-based sessions:{' '}
          <strong>
            {view.trustPolicy === 'ecosystem' ? "the ecosystem's list only" : "each organisation's own anchors"}
          </strong>
        </p>
        {view.lead ? (
          <div class="columns">
            <PostForm action={`${base}/trust-policy`} csrfToken={context.csrfToken} label="Trust policy">
              <ChoiceGroup
                name="policy"
                type="radio"
                label="Trust policy"
                options={[
                  { value: 'organisation', label: "Each organisation's own trust anchors" },
                  { value: 'ecosystem', label: "The ecosystem's trust list only" },
                ]}
                checked={[view.trustPolicy]}
              />
              <button type="submit">Save the trust policy</button>
            </PostForm>
            <PostForm
              action={`${base}/trust-list/visibility`}
              csrfToken={context.csrfToken}
              label="Trust list visibility"
            >
              <ChoiceGroup
                name="public"
                type="radio"
                label="Who may read the signed list"
                options={[
                  { value: 'false', label: 'The lead and active members (with a token)' },
                  { value: 'true', label: 'Anyone (public, cacheable)' },
                ]}
                checked={[String(view.trustListPublic)]}
              />
              <button type="submit">Save the visibility</button>
            </PostForm>
          </div>
        ) : null}
      </Section>
      <Section title="Intents" id="intents">
        {view.intents.data.length === 0 ? (
          <Empty>No intent yet.</Empty>
        ) : (
          <ul class="cards">
            {view.intents.data.map((intent) => (
              <li>
                <a href={`/intents/${encodeURIComponent(intent.id)}`}>{intent.name}</a>
                <span class="muted"> {intent.description}</span>
              </li>
            ))}
          </ul>
        )}
        <Pagination page={view.intents} href={(n) => `${base}?intents=${n}`} label="Intents" />
        {view.lead ? (
          <PostForm action={`${base}/intents`} csrfToken={context.csrfToken} label="New intent">
            <h3>New intent</h3>
            <TextField
              name="name"
              label="Intent name"
              required
              value={valueOf(flash, 'name')}
              problem={problemAt(flash, '/name')}
              hint="The key relying parties ask with, e.g. age-verification (1 to 100 characters)."
            />
            <TextArea
              name="description"
              label="Description"
              rows={2}
              value={valueOf(flash, 'description')}
              problem={problemAt(flash, '/description')}
            />
            <button type="submit">Add the intent</button>
          </PostForm>
        ) : null}
      </Section>
      <Section title="Organisations" id="organisations">
        {view.members ? (
          <DataTable label="Memberships" columns={['Organisation', 'Role', 'Status', 'Contact', 'Since']}>
            {view.members.map((member) => (
              <tr>
                <td>
                  {member.organisation.name} <span class="muted">({member.organisation.id})</span>
                </td>
                <td>{member.role}</td>
                <td>
                  <Badge tone={member.status === 'ACTIVE' ? 'good' : 'neutral'}>{member.status}</Badge>
                </td>
                <td>{member.user.email ?? member.user.id}</td>
                <td>
                  <Time at={member.createDateTime} />
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <ul class="cards">
            {view.organisations.map((organisation) => (
              <li>
                {organisation.name} <span class="muted">({organisation.role}, joined </span>
                <Time at={organisation.joinedDateTime} />
                <span class="muted">)</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {view.lead && view.invitations ? (
        <Section title="Invitations sent" id="invitations">
          {view.invitations.length === 0 ? (
            <Empty>No member invitation sent.</Empty>
          ) : (
            <DataTable label="Invitations sent" columns={['Organisation', 'Sent to', 'Status', 'Changed']}>
              {view.invitations.map((invitation) => (
                <tr>
                  <td>
                    {invitation.organisation?.name ?? invitation.invitedOrg}{' '}
                    <span class="muted">({invitation.invitedOrg})</span>
                  </td>
                  <td>{invitation.email}</td>
                  <td>
                    <InvitationStatusBadge status={invitation.status} />
                  </td>
                  <td>
                    <Time at={invitation.lastChangedDateTime} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <PostForm action={`${base}/invitations`} csrfToken={context.csrfToken} label="Invite an organisation">
            <TextField
              name="orgId"
              label="Organisation id"
              required
              value={valueOf(flash, 'orgId')}
              problem={problemAt(flash, '/orgId')}
              hint="As in the platform's directory; the invitation goes to its owner."
            />
            <button type="submit">Invite the organisation</button>
          </PostForm>
        </Section>
      ) : null}
    </Layout>
  );
}
