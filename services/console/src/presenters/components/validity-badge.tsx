import { validityOf } from '../../domain/certificate-validity.js';
import { Badge } from './display.js';

/** A certificate's standing in words: valid, expiring within 30 days, expired, not yet valid. */
export function ValidityBadge(props: { notAfter?: string; notBefore?: string; now: Date }) {
  const state = validityOf(props.notAfter, props.now, props.notBefore);
  switch (state) {
    case 'expired':
      return <Badge tone="bad">expired</Badge>;
    case 'expires-soon':
      return <Badge tone="warn">expires within 30 days</Badge>;
    case 'not-yet-valid':
      return <Badge tone="warn">not yet valid</Badge>;
    default:
      return <Badge tone="good">valid</Badge>;
  }
}
