import type { PlatformAdmin } from '../../use-cases/load-platform-admin.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Facts, Pagination, Section, Time } from '../components/display.js';
import { PostForm, TextField, problemAt, valueOf } from '../components/forms.js';
import { InvitationStatusBadge } from '../components/invitation-status.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function PlatformAdminPage(props: { context: PageContext; admin: PlatformAdmin }) {
  const { context, admin } = props;
  const flash = context.flash;
  return (
    <Layout context={context} frame={{ title: 'Platform administration' }}>
      <Section title="The platform" id="summary">
        <Facts
          items={[
            ['Ecosystems', String(admin.summary.ecosystem)],
            ['Lead invitations', String(admin.summary.invitations)],
            ['Active organisations', String(admin.summary.activeOrgs)],
          ]}
        />
      </Section>
      <Section title="Invite someone to lead an ecosystem" id="invite">
        <p>
          The person signs in with this e-mail address, as owner of the organisation that will lead, and forms the
          ecosystem on its Ecosystems page.
        </p>
        <PostForm action="/admin/lead-invitations" csrfToken={context.csrfToken} label="Invite a lead">
          <TextField
            name="email"
            label="E-mail address"
            type="email"
            required
            value={valueOf(flash, 'email')}
            problem={problemAt(flash, '/email')}
            autocomplete="email"
          />
          <button type="submit">Send the invitation</button>
        </PostForm>
      </Section>
      <Section title="Lead invitations you sent" id="invitations">
        {admin.invitations.data.length === 0 ? (
          <Empty>You have sent no lead invitation.</Empty>
        ) : (
          <DataTable label="Lead invitations you sent" columns={['E-mail', 'Status', 'Ecosystem', 'Sent', 'Changed']}>
            {admin.invitations.data.map((invitation) => (
              <tr>
                <td>{invitation.email}</td>
                <td>
                  <InvitationStatusBadge status={invitation.status} />
                </td>
                <td>{invitation.ecosystem?.name ?? <span class="muted">not formed yet</span>}</td>
                <td>
                  <Time at={invitation.createDateTime} />
                </td>
                <td>
                  <Time at={invitation.lastChangedDateTime} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination page={admin.invitations} href={(n) => `/admin?page=${n}`} label="Lead invitations" />
      </Section>
    </Layout>
  );
}
