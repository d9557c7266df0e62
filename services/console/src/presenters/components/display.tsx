import type { ComponentChildren } from 'preact';
import type { PageOf } from '@tessera/contracts';
import { formatTimestamp } from '../../domain/format.js';

/** A point in time, readable (UTC) and machine-readable. */
export function Time(props: { at: string | number | undefined | null }) {
  if (props.at === undefined || props.at === null) return <span class="muted">—</span>;
  const iso = new Date(props.at).toISOString();
  return <time dateTime={iso}>{formatTimestamp(iso)}</time>;
}

export type BadgeTone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

/** A short status word; the tone is decoration, the word carries the meaning. */
export function Badge(props: { tone: BadgeTone; children: ComponentChildren }) {
  return <span class={`badge ${props.tone}`}>{props.children}</span>;
}

/** Links to the previous and next pages of a list, keeping the other query parameters. */
export function Pagination(props: { page: PageOf<unknown>; href: (pageNumber: number) => string; label: string }) {
  const { page } = props;
  if (page.totalPages <= 1) return null;
  return (
    <nav class="pagination" aria-label={`${props.label}: pages`}>
      {page.page > 1 ? <a href={props.href(page.page - 1)}>Previous page</a> : null}
      <span>
        Page {page.page} of {page.totalPages} ({page.totalItems} in all)
      </span>
      {page.page < page.totalPages ? <a href={props.href(page.page + 1)}>Next page</a> : null}
    </nav>
  );
}

/** An empty list said in words, inside the region that would hold it. */
export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

/** A titled part of a page. */
export function Section(props: { title: string; id: string; children: ComponentChildren; level?: 2 | 3 }) {
  const Heading = props.level === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby={`${props.id}-title`} class="panel">
      <Heading id={`${props.id}-title`}>{props.title}</Heading>
      {props.children}
    </section>
  );
}

/** Term and description pairs. */
export function Facts(props: { items: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {props.items.map(([term, description]) => (
        <div>
          <dt>{term}</dt>
          <dd>{description}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A table that scrolls sideways on a narrow screen: the scrolling region is focusable
 * and named, so a keyboard user can scroll it and a screen reader says what it holds.
 */
export function TableScroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
