import type { PageOf, VerificationTemplate } from '@tessera/contracts';
import { requestedCredentials } from '../../domain/requested-credentials.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Pagination, Section, Time } from '../components/display.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function TemplatesPage(props: { context: PageContext; orgId: string; templates: PageOf<VerificationTemplate> }) {
  const { context, orgId, templates } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/templates`;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Verification templates',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: `/orgs/${encodeURIComponent(orgId)}` },
          { label: 'Templates' },
        ],
      }}
    >
      <p>
        <a class="button" href={`${base}/new`}>
          New template
        </a>
      </p>
      <Section title="Templates" id="templates">
        {templates.data.length === 0 ? (
          <Empty>No template yet.</Empty>
        ) : (
          <DataTable label="Verification templates" columns={['Template', 'Asks for', 'Signed with', 'Changed']}>
            {templates.data.map((template) => (
              <tr>
                <td>
                  <a href={`${base}/${encodeURIComponent(template.id)}`}>{template.name}</a>
                  <div class="muted">
                    <code>{template.id}</code>
                  </div>
                </td>
                <td>
                  {requestedCredentials(template.templateJson.dcql.query as Record<string, unknown>)
                    .credentials.map(
                      (credential) =>
                        `${credential.types.join(' or ') || credential.format} (${credential.claims.length || 'all'} claims)`,
                    )
                    .join('; ')}
                </td>
                <td>
                  {template.signerOption}
                  {template.clientIdPrefix ? ` · ${template.clientIdPrefix}` : ''}
                </td>
                <td>
                  <Time at={template.lastChangedDateTime} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination page={templates} href={(n) => `${base}?page=${n}`} label="Templates" />
      </Section>
    </Layout>
  );
}
