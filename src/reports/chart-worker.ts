/**
 * The thread that draws report charts (started by chart.ts): Vega's layout and resvg's rasterizing take 100 ms or
 * more, which must not hold the app's event loop. One message in (`{ id, input }`), one out (`{ id, png }` or
 * `{ id, error }`), one chart at a time.
 */
import { parentPort } from 'node:worker_threads';
import type { ChartInput } from './figures.js';
import { drawChart } from './chart-draw.js';

const port = parentPort!;

port.on('message', (m: { id: number; input: ChartInput }) => {
  drawChart(m.input).then(
    (png) => port.postMessage({ id: m.id, png }, [png.buffer as ArrayBuffer]),
    (err: unknown) => port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
