import type { ErrorDetail, Verifier } from '@tessera/contracts';
import { QUERY_POINTER } from '../../domain/dcql-draft.js';
import type { RequestedCredentials } from '../../domain/requested-credentials.js';
import { ClientDisplay } from './client-display.js';

/** The draft's problems, each at its place in the query (the path under the query, as the verifier reports it). */
export function DcqlProblems(props: { problems: ErrorDetail[] }) {
  if (props.problems.length === 0)
    return <p class="check-ok">The query looks right. The verifier checks it again when you save.</p>;
  return (
    <>
      <p class="field-problem">
        {props.problems.length} problem{props.problems.length === 1 ? '' : 's'} in the query:
      </p>
      <ul class="details">
        {props.problems.map((problem) => (
          <li>
            <code>
              {problem.path.startsWith(QUERY_POINTER) ? problem.path.slice(QUERY_POINTER.length) || '/' : problem.path}
            </code>{' '}
            {problem.message.startsWith(`${problem.path}: `)
              ? problem.message.slice(problem.path.length + 2)
              : problem.message}
          </li>
        ))}
      </ul>
    </>
  );
}

/** What the wallet will show the person, and the query it receives. */
export function RequestPreview(props: {
  requested: RequestedCredentials;
  walletQuery?: Record<string, unknown> | undefined;
  verifier?: Verifier | undefined;
}) {
  const { requested } = props;
  return (
    <div class="wallet-preview">
      {props.verifier ? (
        <ClientDisplay verifierId={props.verifier.verifierId} metadata={props.verifier.clientMetadata} />
      ) : (
        <strong>Your verifier</strong>
      )}
      <p>asks you to share:</p>
      {requested.credentials.length === 0 ? (
        <p class="muted">nothing yet: the query names no credential.</p>
      ) : (
        <ul>
          {requested.credentials.map((credential) => (
            <li>
              <strong>{credential.types.join(' or ') || 'a credential'}</strong>{' '}
              <span class="muted">
                ({credential.format}, “{credential.id}”{credential.holderBinding ? ', proven yours' : ''})
              </span>
              {credential.claims.length > 0 ? (
                <ul>
                  {credential.claims.map((claim) => (
                    <li>
                      {claim.path}
                      {claim.retained ? <span class="badge warn">kept by the verifier</span> : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <div class="muted">every claim the credential holds</div>
              )}
            </li>
          ))}
        </ul>
      )}
      {requested.sets.length > 0 ? (
        <>
          <p>Alternatives:</p>
          <ul>
            {requested.sets.map((set) => (
              <li>
                {set.required ? 'One of' : 'Optionally one of'}:{' '}
                {set.options.map((option) => option.join(' + ')).join(' | ')}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {props.walletQuery ? (
        <details>
          <summary>The query the wallet receives</summary>
          <pre>{JSON.stringify(props.walletQuery, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}
