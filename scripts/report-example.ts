/**
 * `npm run report:example`: the picture of a real report shown in the README (docs/report-example.png), made from
 * the sandbox's demo data with the app's own code: the simulator in sandbox mode, the report gathered through the
 * service client (src/reports/gather.ts) and drawn as the app draws it (src/reports/chart-draw.ts). No Slack needed.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { translator } from '../src/i18n/translator.js';
import { OutreachClient } from '../src/outreach/client.js';
import { reportAltText, reportChartInput } from '../src/render/report.js';
import { drawChart } from '../src/reports/chart-draw.js';
import { gatherReport } from '../src/reports/gather.js';
import { startSimulator } from '../src/sim/index.js';
import { systemClock } from '../src/clock.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'report-example.png');

const sim = await startSimulator({ sandbox: { live: false } });
// The demo campaigns call on: run the sandbox's driver a while so the report has more to show.
sim.control.tick(120);
const client = new OutreachClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
try {
  // The sandbox's phone campaign with the most calls.
  let best: { id: number; calls: number } | undefined;
  for await (const c of client.iterateCampaigns({ includeArchived: true })) {
    const detail = await client.getCampaign(c.id);
    const calls = Number(detail.analytics?.calls ?? 0);
    if (detail.integration?.type === 'phone_call' && calls > (best?.calls ?? 0)) best = { id: c.id, calls };
  }
  if (!best) throw new Error('the sandbox has no phone campaign with calls');
  const figures = await gatherReport(client, best.id, { clock: systemClock, periodDays: 7 });
  const t = translator('en');
  const png = await drawChart(reportChartInput(figures, t));
  writeFileSync(OUT, png);
  console.log(`${OUT}: campaign #${best.id}, ${png.length} bytes`);
  console.log(`alt text: ${reportAltText(figures, t)}`);
} finally {
  await client.close();
  await sim.close();
}
