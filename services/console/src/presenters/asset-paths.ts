/** The Chart.js build pages with charts load (UMD: one file, no imports to resolve; served by routes/assets.ts). */
export const CHART_JS_SCRIPT = '/assets/vendor/chart.umd.min.js';

/** A compiled browser script of the console (browser/<name>.ts). */
export const scriptPath = (name: string) => `/assets/scripts/${name}.js`;
