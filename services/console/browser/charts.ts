import type { Chart as ChartClass, ChartConfiguration } from 'chart.js';

// The overview's charts, drawn with Chart.js (loaded before this module as its UMD
// build) from the table beside each chart: the table is the data, so the chart and
// what a screen reader reads always agree. No animation: the numbers appear at once.

const Chart = (window as unknown as { Chart?: typeof ChartClass }).Chart;

/** Series colours with text-like contrast against white, distinguishable in common colour blindness. */
const COLOURS = ['#1d4ed8', '#b91c1c', '#a16207', '#047857', '#6d28d9'];
const OUTCOME_COLOURS: Record<string, string> = {
  verified: '#047857',
  refused: '#b91c1c',
  expired: '#a16207',
  delivered: '#047857',
  pending: '#a16207',
  failed: '#b91c1c',
};

interface TableData {
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
}

function readTable(table: HTMLTableElement): TableData {
  const names = [...table.querySelectorAll('thead th')].slice(1).map((cell) => cell.textContent?.trim() ?? '');
  const rows = [...table.querySelectorAll('tbody tr')].filter((row) => row.querySelector('th[scope="row"]'));
  return {
    labels: rows.map((row) => row.querySelector('th')?.textContent?.trim() ?? ''),
    series: names.map((name, index) => ({
      name,
      values: rows.map((row) => Number(row.querySelectorAll('td')[index]?.textContent ?? 0)),
    })),
  };
}

function configure(kind: string, data: TableData): ChartConfiguration {
  const stacked = kind === 'stacked-bar';
  const horizontal = kind === 'horizontal-bar';
  return {
    type: kind === 'line' ? 'line' : 'bar',
    data: {
      labels: data.labels.map((label) => (/^\d{4}-\d\d-\d\d \d\d:00$/.test(label) ? label.slice(11) : label)),
      datasets: data.series.map((series, index) => {
        const colour = OUTCOME_COLOURS[series.name] ?? COLOURS[index % COLOURS.length]!;
        return { label: series.name, data: series.values, backgroundColor: colour, borderColor: colour };
      }),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: horizontal ? 'y' : 'x',
      scales: {
        x: { stacked, ...(horizontal ? { beginAtZero: true, ticks: { precision: 0 } } : {}) },
        y: { stacked, ...(horizontal ? {} : { beginAtZero: true, ticks: { precision: 0 } }) },
      },
      plugins: { legend: { display: data.series.length > 1 } },
    },
  };
}

if (Chart) {
  for (const canvas of document.querySelectorAll<HTMLCanvasElement>('canvas[data-chart]')) {
    const table = document.getElementById(canvas.dataset.chartTable ?? '') as HTMLTableElement | null;
    if (!table) continue;
    new Chart(canvas, configure(canvas.dataset.chart ?? 'bar', readTable(table)));
    canvas.dataset.drawn = 'true';
  }
}
