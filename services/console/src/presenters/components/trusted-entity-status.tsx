import type { TrustedEntityStatus } from '@tessera/contracts';
import { Badge } from './display.js';

const TONES = { active: 'good', suspended: 'warn', withdrawn: 'bad' } as const;

export function TrustedEntityStatusBadge(props: { status: TrustedEntityStatus }) {
  return <Badge tone={TONES[props.status]}>{props.status}</Badge>;
}
