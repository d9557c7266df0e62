import type { EcosystemsOverview } from '../../use-cases/load-ecosystems.js';
import { DataTable } from '../components/data-table.js';
import { Badge, Empty, Section, Time } from '../components/display.js';
import { PostForm, SelectField, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import { ReceivedInvitations } from '../components/invitation-answer.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function EcosystemsPage(props: { context: PageContext; overview: EcosystemsOverview }) {
  const { context, overview } = props;
  const flash = context.flash;
  return (
    <Layout context={context} frame={{ title: 'Ecosystems' }}>
      <Section title="Your ecosystems" id="ecosystems">
        {overview.ecosystems.length === 0 ? (
          <Empty>None of your organisations leads or belongs to an ecosystem.</Empty>
        ) : (
          <DataTable
            label="Your ecosystems"
            columns={['Ecosystem', 'Your role', 'Led by', { heading: 'Members', numeric: true }, 'Formed']}
          >
            {overview.ecosystems.map((ecosystem) => (
              <tr>
                <td>
                  <a href={`/ecosystems/${encodeURIComponent(ecosystem.id)}`}>{ecosystem.name}</a>
                  <div class="muted">{ecosystem.description}</div>
                </td>
                <td>
                  <Badge tone={ecosystem.role === 'Ecosystem Lead' ? 'info' : 'neutral'}>{ecosystem.role}</Badge>
                </td>
                <td>{ecosystem.leadOrg.name}</td>
                <td class="number">{ecosystem.memberCount}</td>
                <td>
                  <Time at={ecosystem.createDateTime} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      {overview.ownedOrganisations.length > 0 ? (
        <>
          <Section title="Invitations your organisations received" id="received">
            <ReceivedInvitations
              label="Invitations your organisations received"
              invitations={overview.received}
              csrfToken={context.csrfToken}
              withStatus
            />
          </Section>
          <Section title="Form an ecosystem" id="form">
            <p>
              For an organisation whose owner (you) was invited to lead by the platform administrator, and which is in
              the directory.
            </p>
            <PostForm action="/ecosystems" csrfToken={context.csrfToken} label="Form an ecosystem">
              <SelectField
                name="orgId"
                label="Leading organisation"
                required
                value={valueOf(flash, 'orgId')}
                options={overview.ownedOrganisations.map((orgId) => ({ value: orgId, label: orgId }))}
              />
              <TextField
                name="name"
                label="Name"
                required
                value={valueOf(flash, 'name')}
                problem={problemAt(flash, '/name')}
                hint="2 to 50 characters, unique on the platform."
              />
              <TextArea
                name="description"
                label="Description"
                rows={3}
                value={valueOf(flash, 'description')}
                problem={problemAt(flash, '/description')}
              />
              <TextField
                name="logoUrl"
                label="Logo address"
                type="url"
                value={valueOf(flash, 'logoUrl')}
                problem={problemAt(flash, '/logoUrl')}
                hint="Optional: an https address of an image."
              />
              <TextField
                name="tags"
                label="Tags"
                value={valueOf(flash, 'tags')}
                problem={problemAt(flash, '/tags')}
                hint="Optional, separated by commas."
              />
              <button type="submit">Form the ecosystem</button>
            </PostForm>
          </Section>
        </>
      ) : null}
    </Layout>
  );
}
