import type { Home } from '../../use-cases/load-home.js';
import { Badge, Empty, Section } from '../components/display.js';
import { ReceivedInvitations } from '../components/invitation-answer.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function HomePage(props: { context: PageContext; home: Home }) {
  const { context, home } = props;
  const user = context.user!;
  const organisations = Object.entries(user.orgRoles).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Layout context={context} frame={{ title: 'Start' }}>
      <p>
        Signed in as <strong>{user.email ?? user.sub}</strong>
        {user.platformAdmin ? ' (platform administrator)' : ''}.
      </p>
      <Section title="Your organisations" id="organisations">
        {organisations.length === 0 ? (
          <Empty>Your account holds no role in an organisation.</Empty>
        ) : (
          <ul class="cards">
            {organisations.map(([orgId, roles]) => (
              <li>
                <a href={`/orgs/${encodeURIComponent(orgId)}`}>{orgId}</a>
                <span class="muted"> {roles.join(', ')}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Invitations waiting for your answer" id="invitations">
        <ReceivedInvitations
          label="Invitations waiting for your answer"
          invitations={home.pendingInvitations}
          csrfToken={context.csrfToken}
        />
      </Section>
      <Section title="Your ecosystems" id="ecosystems">
        {home.ecosystems.length === 0 ? (
          <Empty>
            None yet. <a href="/ecosystems">Ecosystems</a> lists them, and there an organisation invited to lead forms
            one.
          </Empty>
        ) : (
          <ul class="cards">
            {home.ecosystems.map((ecosystem) => (
              <li>
                <a href={`/ecosystems/${encodeURIComponent(ecosystem.id)}`}>{ecosystem.name}</a>{' '}
                <Badge tone={ecosystem.role === 'Ecosystem Lead' ? 'info' : 'neutral'}>{ecosystem.role}</Badge>
                <span class="muted"> led by {ecosystem.leadOrg.name}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </Layout>
  );
}
