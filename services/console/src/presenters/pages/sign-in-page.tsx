import { Layout } from '../components/layout.js';
import { ChoiceGroup, PostForm, TextArea, TextField, problemAt, valueOf } from '../components/forms.js';
import type { PageContext } from '../page-context.js';

/** Why the last sign-in did not finish, in words. */
const SIGN_IN_PROBLEMS: Record<string, string> = {
  'provider-unavailable': 'The sign-in service did not answer. Try again in a moment.',
  refused: 'The sign-in was refused or could not be completed. Try again.',
  'no-pending-sign-in': 'That sign-in had expired or was started in another browser. Start again.',
};

export function SignInPage(props: {
  context: PageContext;
  returnTo: string;
  oidc: boolean;
  development: boolean;
  problem?: string;
  signedOut?: boolean;
}) {
  const { context } = props;
  const flash = context.flash;
  return (
    <Layout context={context} frame={{ title: 'Sign in' }}>
      {props.signedOut ? (
        <div class="flash success" role="status">
          <p>You are signed out.</p>
        </div>
      ) : null}
      {props.problem && SIGN_IN_PROBLEMS[props.problem] ? (
        <div class="flash problem" role="alert">
          <p>{SIGN_IN_PROBLEMS[props.problem]}</p>
        </div>
      ) : null}
      {props.oidc ? (
        <section aria-labelledby="oidc-title" class="panel">
          <h2 id="oidc-title">With your organisation account</h2>
          <p>You sign in at the platform's identity provider and come back here.</p>
          <p>
            <a class="button" href={`/sign-in/start?returnTo=${encodeURIComponent(props.returnTo)}`}>
              Sign in
            </a>
          </p>
        </section>
      ) : null}
      {props.development ? (
        <section aria-labelledby="dev-title" class="panel">
          <h2 id="dev-title">Development sign-in</h2>
          <p>
            Development mode only: the console mints your access token with the development key the services trust in
            development (as <code>npm run token</code> does). Say who you are and which roles you hold.
          </p>
          <PostForm action="/sign-in/development" csrfToken={context.csrfToken} label="Development sign-in">
            <input type="hidden" name="returnTo" value={props.returnTo} />
            <TextField
              name="sub"
              label="User id"
              required
              value={valueOf(flash, 'sub', 'alice')}
              problem={problemAt(flash, '/sub')}
              autocomplete="username"
            />
            <TextField
              name="email"
              label="E-mail address"
              type="email"
              value={valueOf(flash, 'email', 'alice@example.com')}
              problem={problemAt(flash, '/email')}
              autocomplete="email"
            />
            <TextArea
              name="organisations"
              label="Organisations and roles"
              hint='One organisation per line: its id, a colon and its roles (owner, admin, verifier, member), e.g. "org-1: owner, admin".'
              rows={3}
              value={valueOf(flash, 'organisations', 'org-1: owner, admin, verifier')}
              problem={problemAt(flash, '/organisations')}
              code
            />
            <ChoiceGroup
              name="platformAdmin"
              label="Platform"
              type="checkbox"
              options={[{ value: 'on', label: 'Platform administrator' }]}
              checked={valueOf(flash, 'platformAdmin') === 'on' ? ['on'] : []}
            />
            <button type="submit">Sign in for development</button>
          </PostForm>
        </section>
      ) : null}
    </Layout>
  );
}
