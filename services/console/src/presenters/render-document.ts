import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A page as the browser receives it. Preact escapes every text and attribute value it renders. */
export function renderDocument(page: VNode): string {
  return `<!doctype html>${renderToString(page)}`;
}

/** A fragment (a table row, a timeline) sent over an event stream to replace its copy in the page. */
export function renderFragment(fragment: VNode): string {
  return renderToString(fragment);
}
