import Negotiator from 'negotiator';
import { STATUS_LIST_CWT_MEDIA_TYPE, STATUS_LIST_MEDIA_TYPE } from '@tessera/contracts';
import { CONTENT_ENCODINGS, type ContentEncoding } from './content-encoding.js';

// Content negotiation of the read route. Clients send the same few Accept and
// Accept-Encoding values over and over, so each distinct value is negotiated once and
// the answer remembered: a bounded memo, emptied when full, of values short enough
// that it stays small whatever clients send.
const MEMO_ENTRIES = 256;
const MEMO_VALUE_LENGTH = 256;

function memoize<T>(negotiate: (value: string) => T): (value: string) => T {
  const memo = new Map<string, T>();
  return (value) => {
    const known = memo.get(value);
    if (known !== undefined) return known;
    const answer = negotiate(value);
    if (value.length <= MEMO_VALUE_LENGTH) {
      if (memo.size >= MEMO_ENTRIES) memo.clear();
      memo.set(value, answer);
    }
    return answer;
  };
}

/** Whether an `Accept` value admits `mediaType` (itself, its `type/*` or `*∕*`), negotiated once per value. */
function acceptance(mediaType: string): (accept: string) => boolean {
  return memoize((accept) => new Negotiator({ headers: { accept } }).mediaType([mediaType]) !== undefined);
}

/** Whether an `Accept` value admits `application/statuslist+jwt` (itself, `application/*` or `*∕*`). */
export const acceptsStatusList: (accept: string) => boolean = acceptance(STATUS_LIST_MEDIA_TYPE);

/** The media types the read routes serve, each with its own memo. */
const ACCEPTANCE = new Map<string, (accept: string) => boolean>([
  [STATUS_LIST_MEDIA_TYPE, acceptsStatusList],
  [STATUS_LIST_CWT_MEDIA_TYPE, acceptance(STATUS_LIST_CWT_MEDIA_TYPE)],
  ['application/json', acceptance('application/json')],
]);

/** Whether an `Accept` value admits `mediaType`, one of the media types the read routes serve. */
export function acceptsMediaType(accept: string, mediaType: string): boolean {
  let accepts = ACCEPTANCE.get(mediaType);
  if (!accepts) {
    accepts = acceptance(mediaType);
    ACCEPTANCE.set(mediaType, accepts);
  }
  return accepts(accept);
}

const AVAILABLE_ENCODINGS = [...CONTENT_ENCODINGS, 'identity'];
const negotiateEncoding = memoize((acceptEncoding): ContentEncoding | 'identity' => {
  // RFC 9110 §8.4.1.3: x-gzip is gzip.
  const header = acceptEncoding.toLowerCase().replace(/\bx-gzip\b/g, 'gzip');
  const chosen = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(AVAILABLE_ENCODINGS);
  // Nothing acceptable (e.g. `identity;q=0` alone): the body is sent as it is, as before.
  return (chosen as ContentEncoding | 'identity' | undefined) ?? 'identity';
});

/**
 * The content coding to send for an `Accept-Encoding` value: the client's highest
 * q-value among br, gzip and deflate (on ties the one the client lists first; for `*`
 * br, then gzip), or undefined for the body as it is (no header, identity preferred,
 * or nothing we offer accepted).
 */
export function chooseContentEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const chosen = negotiateEncoding(acceptEncoding);
  return chosen === 'identity' ? undefined : chosen;
}
