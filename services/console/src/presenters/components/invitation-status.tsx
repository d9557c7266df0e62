import type { InvitationStatus } from '@tessera/contracts';
import { Badge } from './display.js';

const TONES = { pending: 'warn', accepted: 'good', rejected: 'bad' } as const;

export function InvitationStatusBadge(props: { status: InvitationStatus }) {
  return <Badge tone={TONES[props.status]}>{props.status}</Badge>;
}
