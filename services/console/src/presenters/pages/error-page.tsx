import { Layout } from '../components/layout.js';
import type { PageContext } from '../page-context.js';

/** A page that could not be shown: what happened, in the service's words when a service said it, and where to go. */
export function ErrorPage(props: {
  context: PageContext;
  status: number;
  title: string;
  message: string;
  code?: string;
}) {
  return (
    <Layout context={props.context} frame={{ title: props.title }}>
      <div class="flash problem" role="alert">
        <p>
          {props.message}
          {props.code ? <span class="code"> ({props.code})</span> : null}
        </p>
      </div>
      <p>
        <a href="/">Back to the start page</a>
      </p>
    </Layout>
  );
}

/** Titles of the statuses a page may end with. */
export function titleOfStatus(status: number): string {
  switch (status) {
    case 400:
      return 'That request was not understood';
    case 401:
      return 'Sign in again';
    case 403:
      return 'Not allowed';
    case 404:
      return 'Not found';
    case 409:
      return 'Not possible now';
    case 503:
      return 'A service is unavailable';
    default:
      return status >= 500 ? 'Something went wrong' : 'That did not work';
  }
}
