/**
 * Draws a chart spec: Vega-Lite → Vega → SVG (Vega's headless View, no canvas, no browser) → PNG (resvg), with the
 * DejaVu Sans font file shipped by the `dejavu-fonts-ttf` npm package (its license: node_modules/dejavu-fonts-ttf/LICENSE)
 * and no system font. Runs inside the chart thread (chart-worker.ts); `bench/report.bench.ts` times it.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile } from 'vega-lite';
import { CHART_FONT, chartSpec } from './chart-spec.js';
import type { ChartInput } from './figures.js';

const require = createRequire(import.meta.url);
/** The font files: regular and bold (titles). */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) =>
  join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', f),
);
/** Device pixels per CSS pixel: a 600-pixel-wide chart becomes a picture of about 900 pixels, sharp on most screens. */
const SCALE = 1.5;

async function chartSvg(input: ChartInput): Promise<string> {
  const view = new View(parse(compile(chartSpec(input)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export async function drawChart(input: ChartInput): Promise<Uint8Array> {
  const svg = await chartSvg(input);
  const png = new Resvg(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: CHART_FONT },
    fitTo: { mode: 'zoom', value: SCALE },
    background: '#ffffff',
  })
    .render()
    .asPng();
  return new Uint8Array(png);
}
