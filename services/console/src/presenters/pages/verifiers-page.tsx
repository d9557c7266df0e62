import type { PageOf, Verifier } from '@tessera/contracts';
import { ClientDisplay } from '../components/client-display.js';
import { DataTable } from '../components/data-table.js';
import { Empty, Pagination, Section, Time } from '../components/display.js';
import { PostForm, TextField, problemAt, valueOf } from '../components/forms.js';
import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

export function VerifiersPage(props: { context: PageContext; orgId: string; verifiers: PageOf<Verifier> }) {
  const { context, orgId, verifiers } = props;
  const base = `/orgs/${encodeURIComponent(orgId)}/verifiers`;
  const flash = context.flash;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Verifiers and webhooks',
        breadcrumbs: [
          { label: `Organisation ${orgId}`, href: `/orgs/${encodeURIComponent(orgId)}` },
          { label: 'Verifiers' },
        ],
      }}
    >
      <Section title="Verifiers" id="verifiers">
        {verifiers.data.length === 0 ? (
          <Empty>No verifier yet: add one below, then ask for presentations with it.</Empty>
        ) : (
          <DataTable label="Verifiers" columns={['Verifier', 'Shown to wallets as', 'Changed']}>
            {verifiers.data.map((verifier) => (
              <tr>
                <td>
                  <a href={`${base}/${encodeURIComponent(verifier.verifierId)}`}>{verifier.verifierId}</a>
                </td>
                <td>
                  <ClientDisplay verifierId={verifier.verifierId} metadata={verifier.clientMetadata} />
                </td>
                <td>
                  <Time at={verifier.lastChangedDateTime} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pagination page={verifiers} href={(n) => `${base}?page=${n}`} label="Verifiers" />
      </Section>
      <Section title="Add a verifier" id="add">
        <PostForm action={base} csrfToken={context.csrfToken} label="Add a verifier">
          <TextField
            name="verifierId"
            label="Verifier id"
            required
            value={valueOf(flash, 'verifierId')}
            problem={problemAt(flash, '/verifierId')}
            hint="Your own name for it, used in addresses: letters, digits and . _ : ~ - (e.g. front-desk)."
          />
          <TextField
            name="clientName"
            label="Display name"
            value={valueOf(flash, 'clientName')}
            problem={problemAt(flash, '/clientMetadata/client_name')}
            hint="What wallets show the person."
          />
          <TextField
            name="logoUri"
            label="Logo address"
            type="url"
            value={valueOf(flash, 'logoUri')}
            problem={problemAt(flash, '/clientMetadata/logo_uri')}
            hint="An https address (or a data:image address) of the logo wallets show."
          />
          <button type="submit">Add the verifier</button>
        </PostForm>
      </Section>
    </Layout>
  );
}
