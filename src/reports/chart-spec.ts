/**
 * The report's chart as a Vega-Lite spec: the contact funnel, calls by outcome and calls by hour of the day, on an
 * opaque white background with dark text, so it reads the same in Slack's light and dark themes. Its words come in
 * already translated (`ChartInput`), so the spec is plain data and can cross into the rendering thread.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ChartBar, ChartInput } from './figures.js';

/** The font rendered into the picture (shipped by the `dejavu-fonts-ttf` package: no system font is needed). */
export const CHART_FONT = 'DejaVu Sans';
const WIDTH = 560;
const TEXT = '#1f2328';
const BAR = '#2f6fdf';
const BAR_ALT = '#6e7781';

function bars(title: string, values: ChartBar[], color: string) {
  return {
    title,
    width: WIDTH,
    height: { step: 26 },
    data: { values },
    encoding: {
      // In the data's order (the funnel's steps).
      y: { field: 'label', type: 'nominal' as const, sort: null, title: null },
      x: { field: 'count', type: 'quantitative' as const, title: null, axis: { tickMinStep: 1, format: 'd' } },
    },
    layer: [
      { mark: { type: 'bar' as const, color } },
      {
        mark: { type: 'text' as const, align: 'left' as const, dx: 4, color: TEXT },
        encoding: { text: { field: 'count', type: 'quantitative' as const, format: ',d' } },
      },
    ],
  };
}

export function chartSpec(input: ChartInput): TopLevelSpec {
  const panels: unknown[] = [bars(input.funnelTitle, input.funnel, BAR)];
  if (input.outcomes && input.outcomesTitle) panels.push(bars(input.outcomesTitle, input.outcomes, BAR_ALT));
  if (input.byHour && input.hoursTitle) {
    panels.push({
      title: input.hoursTitle,
      width: WIDTH,
      height: 120,
      data: { values: input.byHour.map((count, hour) => ({ hour, count })) },
      mark: { type: 'bar', color: BAR },
      encoding: {
        x: { field: 'hour', type: 'ordinal', title: input.hourAxis ?? null, axis: { labelAngle: 0 } },
        y: { field: 'count', type: 'quantitative', title: null, axis: { tickMinStep: 1, format: 'd' } },
      },
    });
  }
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: input.title, subtitle: input.subtitle, anchor: 'start', color: TEXT, subtitleColor: TEXT },
    background: '#ffffff',
    padding: 16,
    config: {
      font: CHART_FONT,
      view: { stroke: null },
      title: { color: TEXT, fontSize: 15 },
      axis: { labelColor: TEXT, titleColor: TEXT, domainColor: '#8c959f', tickColor: '#8c959f', gridColor: '#d0d7de' },
    },
    vconcat: panels,
    spacing: 24,
  } as TopLevelSpec;
}
