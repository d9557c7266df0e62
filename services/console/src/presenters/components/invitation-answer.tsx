import type { Invitation } from '@tessera/contracts';
import { Empty, TableScroll, Time } from './display.js';
import { ActionButton } from './forms.js';
import { InvitationStatusBadge } from './invitation-status.js';

export type ReceivedInvitation = Invitation & { orgId: string };

/** Accept and Reject for an invitation an organisation received, each named for a screen reader. */
export function InvitationAnswer(props: { invitation: ReceivedInvitation; csrfToken: string }) {
  const { invitation } = props;
  return (
    <>
      {(['accepted', 'rejected'] as const).map((status) => {
        const verb = status === 'accepted' ? 'Accept' : 'Reject';
        return (
          <ActionButton
            action="/ecosystems/invitations/answer"
            csrfToken={props.csrfToken}
            label={verb}
            accessibleLabel={`${verb} the invitation to ${invitation.ecosystem?.name ?? 'the ecosystem'} for ${invitation.orgId}`}
            danger={status === 'rejected'}
            fields={{ ecosystemId: invitation.ecosystemId ?? '', orgId: invitation.orgId, status }}
          />
        );
      })}
    </>
  );
}

/** The member invitations the person's organisations received, with Accept and Reject on the pending ones. */
export function ReceivedInvitations(props: {
  label: string;
  invitations: ReceivedInvitation[];
  csrfToken: string;
  /** Show each invitation's status (the start page lists pending ones only). */
  withStatus?: boolean;
}) {
  if (props.invitations.length === 0) return <Empty>No invitation is waiting.</Empty>;
  return (
    <TableScroll label={props.label}>
      <table>
        <caption class="visually-hidden">{props.label}</caption>
        <thead>
          <tr>
            <th scope="col">Ecosystem</th>
            <th scope="col">For organisation</th>
            {props.withStatus ? <th scope="col">Status</th> : null}
            <th scope="col">Sent</th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          {props.invitations.map((invitation) => (
            <tr>
              <td>{invitation.ecosystem?.name ?? invitation.ecosystemId}</td>
              <td>{invitation.orgId}</td>
              {props.withStatus ? (
                <td>
                  <InvitationStatusBadge status={invitation.status} />
                </td>
              ) : null}
              <td>
                <Time at={invitation.createDateTime} />
              </td>
              <td class="actions">
                {invitation.status === 'pending' ? (
                  <InvitationAnswer invitation={invitation} csrfToken={props.csrfToken} />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
