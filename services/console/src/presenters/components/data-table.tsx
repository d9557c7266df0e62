import type { ComponentChildren } from 'preact';
import { TableScroll } from './display.js';

/** A column heading; a numeric column's heading is aligned with its numbers. `null`: a column not shown. */
export type DataColumn = string | { heading: string; numeric: true } | null;

/**
 * A table of records in a region that scrolls sideways on a narrow screen: `label`
 * names the region and, unless `caption` says more, is the table's caption (hidden from
 * sight, read by a screen reader). The children are the body's rows.
 */
export function DataTable(props: {
  label: string;
  caption?: string;
  class?: string;
  columns: DataColumn[];
  children: ComponentChildren;
}) {
  return (
    <TableScroll label={props.label}>
      <table class={props.class}>
        <caption class="visually-hidden">{props.caption ?? props.label}</caption>
        <thead>
          <tr>
            {props.columns.map((column) =>
              column === null ? null : typeof column === 'string' ? (
                <th scope="col">{column}</th>
              ) : (
                <th scope="col" class="number">
                  {column.heading}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </TableScroll>
  );
}
