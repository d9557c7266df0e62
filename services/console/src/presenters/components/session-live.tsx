import type { PresentationResponse } from '@tessera/contracts';
import type { ServiceProblem } from '../../domain/service-problem.js';
import { isOpen, STATE_RANK } from '../../domain/session-timeline.js';
import type { SessionView } from '../../use-cases/load-session.js';
import { ClaimsView } from './claims-view.js';
import { DataTable } from './data-table.js';
import { Facts, Section, Time } from './display.js';
import { PostForm } from './forms.js';
import { describeState, SessionStateBadge } from './session-state.js';

/**
 * The part of a session's page that changes with it: its state and timeline, the QR
 * code and same-device link while it is open, then what was proven and who read it.
 * The live page replaces it whole on each change; `data-rank` is the verifier's event
 * id of the state shown.
 */
export function SessionLive(props: {
  orgId: string;
  view: SessionView;
  csrfToken: string;
  /** The claims, when the person asked to read them (a POST), or why they could not be read. */
  claims?: { response?: PresentationResponse; problem?: ServiceProblem } | undefined;
}) {
  const { session, timeline, reads } = props.view;
  const base = `/orgs/${encodeURIComponent(props.orgId)}/sessions/${encodeURIComponent(session.id)}`;
  const open = isOpen(session.state);
  return (
    <div
      id="session-live"
      data-rank={STATE_RANK[session.state]}
      data-state={session.state}
      data-summary={describeState(session)}
    >
      <Facts
        items={[
          ['State', <SessionStateBadge session={session} />],
          ...(session.error ? ([['Why', session.error.message]] as Array<[string, string]>) : []),
          ['Verifier', session.publicVerifierId],
          ['Expires', <Time at={session.expiresAt} />],
        ]}
      />
      {open && session.authorizationRequestUri ? (
        <section aria-labelledby="wallet-title" class="panel">
          <h2 id="wallet-title">For the wallet</h2>
          <img
            class="qr"
            src={`${base}/qr.svg`}
            alt="QR code of the presentation request: scan it with a wallet"
            width="256"
            height="256"
            data-request-uri={session.authorizationRequestUri}
          />
          <p>
            <a href={session.authorizationRequestUri}>Open the request in a wallet on this device</a>
          </p>
          <details>
            <summary>The request address</summary>
            <pre id="request-uri">{session.authorizationRequestUri}</pre>
          </details>
        </section>
      ) : null}
      <h2>Timeline</h2>
      <ol class="timeline" aria-label="What happened to this session">
        {timeline.map((step) => (
          <li class={step.tone}>
            <strong>{step.title}</strong>
            {step.code ? (
              <div>
                Check: <code class="error-code">{step.code}</code>
              </div>
            ) : null}
            {step.detail ? <div>{step.detail}</div> : null}
            {step.at ? (
              <span class="when">
                {step.tone === 'pending' ? 'until ' : ''}
                <Time at={step.at} />
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {session.state === 'ResponseVerified' ? (
        <Section title="What was proven" id="claims">
          {props.claims?.response ? (
            <ClaimsView response={props.claims.response} />
          ) : props.claims?.problem ? (
            <div class="flash problem" role="alert">
              <p>
                {props.claims.problem.message} <span class="code">({props.claims.problem.code})</span>
              </p>
            </div>
          ) : (
            <>
              <p>
                Reading the claims is recorded in the read audit, and claims the query did not mark{' '}
                <code>intent_to_retain</code> are deleted shortly after their first read.
              </p>
              <PostForm action={`${base}/claims`} csrfToken={props.csrfToken} label="Read the claims">
                <button type="submit">Read the claims</button>
              </PostForm>
            </>
          )}
        </Section>
      ) : null}
      {reads ? (
        <Section title="Read audit" id="reads">
          {reads.length === 0 ? (
            <p class="empty">Nobody has read this session's presentation data.</p>
          ) : (
            <DataTable label="Reads of the presentation data" columns={['Who', 'Through', 'When']}>
              {reads.map((read) => (
                <tr>
                  <td>{read.subject}</td>
                  <td>{read.route}</td>
                  <td>
                    <Time at={read.readAt} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Section>
      ) : null}
    </div>
  );
}
