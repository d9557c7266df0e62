import type { Invitation } from '@tessera/contracts';
import { DataTable } from './data-table.js';
import { Empty, Time } from './display.js';
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
    <DataTable
      label={props.label}
      columns={['Ecosystem', 'For organisation', props.withStatus ? 'Status' : null, 'Sent', 'Answer']}
    >
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
    </DataTable>
  );
}
