import type { PresentationSession } from '@tessera/contracts';
import { Time } from './display.js';
import { SessionStateBadge } from './session-state.js';

/** One row of the session list; the live list replaces it (by its id) when the session changes. */
export function SessionRow(props: { orgId: string; session: PresentationSession }) {
  const { session } = props;
  return (
    <tr id={`session-${session.id}`} data-session-id={session.id} data-state={session.state}>
      <td>
        <a href={`/orgs/${encodeURIComponent(props.orgId)}/sessions/${encodeURIComponent(session.id)}`}>
          <code>{session.id.slice(0, 8)}</code>
        </a>
      </td>
      <td>{session.publicVerifierId}</td>
      <td class="state">
        <SessionStateBadge session={session} />
      </td>
      <td>{session.responseMode}</td>
      <td>
        <Time at={session.createdAt} />
      </td>
      <td>
        <Time at={session.updatedAt} />
      </td>
    </tr>
  );
}
