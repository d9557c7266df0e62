import type { ChartData } from '../../domain/overview.js';

export type ChartKind = 'stacked-bar' | 'bar' | 'horizontal-bar' | 'line';

/**
 * A chart and its table, side by side (one above the other at phone width). The table
 * is the data: the charts script draws the canvas from it with Chart.js, so what a
 * screen reader reads and what the chart shows cannot disagree. Without the script,
 * the table alone is the figure.
 */
export function ChartBlock(props: {
  id: string;
  title: string;
  summary: string;
  kind: ChartKind;
  data: ChartData;
  /** Heading of the label column. */
  labelHeading: string;
}) {
  const { id, data } = props;
  const rows = data.labels.map((label, index) => ({
    label,
    values: data.series.map((series) => series.values[index] ?? 0),
  }));
  return (
    <section class="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p>{props.summary}</p>
      <div class="chart-block">
        <div class="chart-canvas">
          <canvas
            data-chart={props.kind}
            data-chart-table={`${id}-table`}
            role="img"
            aria-label={`${props.title}: chart. The table beside it holds the same numbers.`}
          />
        </div>
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
          <table id={`${id}-table`}>
            <caption id={`${id}-caption`}>{props.title}: the numbers</caption>
            <thead>
              <tr>
                <th scope="col">{props.labelHeading}</th>
                {data.series.map((series) => (
                  <th scope="col" class="number">
                    {series.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={data.series.length + 1} class="empty">
                    Nothing in this period.
                  </td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr>
                    <th scope="row">{row.label}</th>
                    {row.values.map((value) => (
                      <td class="number">{value}</td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
