import type { PresentationSession, SessionState } from '@tessera/contracts';
import { Badge } from './display.js';

const STATE_WORDS: Record<SessionState, { label: string; tone: 'neutral' | 'info' | 'good' | 'bad' }> = {
  RequestCreated: { label: 'waiting for a wallet', tone: 'neutral' },
  RequestUriRetrieved: { label: 'wallet fetched the request', tone: 'info' },
  ResponseVerified: { label: 'verified', tone: 'good' },
  Error: { label: 'refused', tone: 'bad' },
};

/** A session's state in words, with the verifier's name for it. */
export function SessionStateBadge(props: { session: Pick<PresentationSession, 'state' | 'error'> }) {
  const words = STATE_WORDS[props.session.state];
  return (
    <>
      <Badge tone={words.tone}>{words.label}</Badge>
      {props.session.error ? <code class="error-code"> {props.session.error.code}</code> : null}
    </>
  );
}

export function describeState(session: Pick<PresentationSession, 'state' | 'error'>): string {
  return `${STATE_WORDS[session.state].label}${session.error ? ` (${session.error.code})` : ''}`;
}
