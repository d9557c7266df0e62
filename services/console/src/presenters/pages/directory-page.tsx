import { Layout } from '../components/layout.js';
import { PostForm, TextField, problemAt, valueOf } from '../components/forms.js';
import type { PageContext } from '../page-context.js';

/**
 * The organisation's directory entry. The ecosystem service keeps the name and the
 * owner's e-mail (from the token) but offers no read of an entry, so the form says
 * what it will do rather than what is stored.
 */
export function DirectoryPage(props: { context: PageContext; orgId: string }) {
  const { context, orgId } = props;
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
      <PostForm
        action={`/orgs/${encodeURIComponent(orgId)}/directory`}
        csrfToken={context.csrfToken}
        label="Directory entry"
      >
        <TextField
          name="name"
          label="Organisation name"
          required
          value={valueOf(flash, 'name')}
          problem={problemAt(flash, '/name')}
          hint="As other organisations will read it in an ecosystem (1 to 200 characters)."
        />
        <button type="submit">Save the directory entry</button>
      </PostForm>
    </Layout>
  );
}
