import type { Organisation } from '@tessera/contracts';
import type { ServiceProblem } from '../../domain/service-problem.js';
import { Facts, Section, Time } from '../components/display.js';
import { Layout } from '../components/layout.js';
import { PostForm, TextField, problemAt, valueOf } from '../components/forms.js';
import type { PageContext } from '../page-context.js';

/**
 * The organisation's directory entry as the ecosystem service keeps it (name, the
 * owner's e-mail from the token, when), and the form that registers or renames it.
 */
export function DirectoryPage(props: {
  context: PageContext;
  orgId: string;
  /** The stored entry; null when the organisation is not in the directory yet; absent when it could not be read. */
  entry?: Organisation | null;
  readProblem?: Pick<ServiceProblem, 'message' | 'code'>;
}) {
  const { context, orgId, entry } = props;
  const flash = context.flash;
  return (
    <Layout
      context={context}
      frame={{
        title: 'Directory entry',
        breadcrumbs: [{ label: 'Organisation', href: `/orgs/${encodeURIComponent(orgId)}` }, { label: orgId }],
      }}
    >
      <p>
        Ecosystems know an organisation by its directory entry: its name, and you (the owner signing this) as the
        contact that invitations go to. Register it before forming or joining an ecosystem; saving again renames it.
      </p>
      <Section title="In the directory" id="entry">
        {entry ? (
          <Facts
            items={[
              ['Name', entry.name],
              ['Contact for invitations', entry.ownerEmail],
              ['Registered', <Time at={entry.createDateTime} />],
              ['Last changed', <Time at={entry.lastChangedDateTime} />],
            ]}
          />
        ) : entry === null ? (
          <p>Not in the directory yet: register it below.</p>
        ) : (
          <p role="alert">
            The current entry could not be read: {props.readProblem?.message} (<code>{props.readProblem?.code}</code>)
          </p>
        )}
      </Section>
      <PostForm
        action={`/orgs/${encodeURIComponent(orgId)}/directory`}
        csrfToken={context.csrfToken}
        label="Directory entry"
      >
        <TextField
          name="name"
          label="Organisation name"
          required
          value={valueOf(flash, 'name', entry?.name)}
          problem={problemAt(flash, '/name')}
          hint="As other organisations will read it in an ecosystem (1 to 200 characters)."
        />
        <button type="submit">Save the directory entry</button>
      </PostForm>
    </Layout>
  );
}
