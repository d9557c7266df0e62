/**
 * The routes that hand out presentation data, as recorded in `presentation_reads`
 * (issue 15, item 4). Every other route answers with session records only
 * (state, timestamps, error code), never a claim value.
 */
export const PRESENTATION_READ_ROUTES = ['verifier-presentation-response', 'verify-authorization-response'] as const;

export type PresentationReadRoute = (typeof PRESENTATION_READ_ROUTES)[number];

/** Who read, through which route, when: what a read of presentation data records. */
export interface PresentationReader {
  /** The caller's access-token subject (`sub`). */
  subject: string;
  route: PresentationReadRoute;
  at: Date;
}
