/**
 * `npm run bench`: measures every figure of BENCHMARKS.md, prints the table and writes
 * `bench/results.json`. `--only size,service` measures some areas only (and writes no file);
 * `--service-runs 1` and `--backends postgres` make the service area shorter. An area that fails
 * is named with its error and the others still run; the run then ends with exit code 1.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildQuietly } from '../scripts/build';
import { findChromium, MISSING_CHROMIUM } from '../scripts/chromium';
import { findFirefox } from '../scripts/firefox';
import { startProduct } from '../test/e2e/support/product';
import { measureBadge } from './badge';
import { measureBulk } from './bulk';
import { clusterUnavailable, measureCluster } from './cluster';
import { measureContentScript } from './content-script';
import { measureDepth } from './depth';
import { type LiveBadgePart, measureLive, measureLiveBadge } from './live';
import { measurePolling } from './polling';
import { measurePopup } from './popup';
import { measureQuiet } from './quiet';
import { measureService, SERVICE_DEFAULTS } from './service';
import { measureSize } from './size';
import { createAreaRunner } from './support/areas';
import { BACKEND_NAMES, benchBackends } from './support/backends';
import { buildExtension } from './support/build';
import { describeMachine, loadAverage } from './support/machine';
import { renderTable } from './support/report';

const AREAS = [
  'size',
  'popup',
  'contentScript',
  'badge',
  'polling',
  'service',
  'depth',
  'bulk',
  'quiet',
  'live',
  'cluster',
] as const;
const BROWSER_AREAS: readonly Area[] = ['popup', 'contentScript', 'badge'];
/** Areas with a part measured in Chromium; without one they still measure the rest. */
const PARTLY_BROWSER_AREAS: readonly Area[] = ['live'];
type Area = (typeof AREAS)[number];

const { values } = parseArgs({
  options: { only: { type: 'string' }, 'service-runs': { type: 'string' }, backends: { type: 'string' } },
});
const chosen = values.only ? values.only.split(',').map((area) => area.trim()) : [...AREAS];
const unknown = chosen.filter((area) => !(AREAS as readonly string[]).includes(area));
if (unknown.length > 0) {
  console.error(`Unknown area ${unknown.join(', ')}; the areas are ${AREAS.join(', ')}.`);
  process.exit(2);
}
const wanted = (area: Area) => chosen.includes(area);
const serviceRuns = values['service-runs'] === undefined ? SERVICE_DEFAULTS.runs : Number(values['service-runs']);
if (!(Number.isInteger(serviceRuns) && serviceRuns >= 1)) {
  console.error('--service-runs takes a whole number of at least 1.');
  process.exit(2);
}
const serviceBackends = values.backends
  ? benchBackends().filter((backend) => values.backends?.split(',').includes(backend))
  : benchBackends();
const say = (line: string) => process.stdout.write(`${line}\n`);

const started = performance.now();
const machine = describeMachine();
say(
  `Benchmarks on ${machine.cpu} (${machine.cores} cores), Node ${machine.node}, ${machine.chromium ?? 'no Chromium'}`,
);
say(`Load average at start: ${machine.loadAverage.join(', ')}`);
const backends = serviceBackends.map((backend) => BACKEND_NAMES[backend]);
say(
  `Service backends: ${backends.join(' and ')}${process.env.DATABASE_URL ? '' : ' (set DATABASE_URL for PostgreSQL too)'}`,
);

const skipped: Area[] = [];
const { area, sections, timings, failed } = createAreaRunner<Area>({
  wanted,
  write: (text) => process.stdout.write(text),
  loadAverage,
});

await area('size', async () => measureSize(await buildExtension('production')));
if (BROWSER_AREAS.some(wanted) && !findChromium()) {
  skipped.push(...BROWSER_AREAS.filter(wanted));
  say(`\n${MISSING_CHROMIUM}\nSkipped: ${skipped.join(', ')}.\n`);
}
const liveBadges: LiveBadgePart[] = [];
if ([...BROWSER_AREAS, ...PARTLY_BROWSER_AREAS].some(wanted) && findChromium()) {
  await buildExtension('e2e');
  const product = await startProduct();
  try {
    await area('popup', () => measurePopup(product));
    await area('contentScript', () => measureContentScript(product));
    await area('badge', () => measureBadge(product));
    // Last: its fifty notifications would change what the areas above measure.
    if (wanted('live')) liveBadges.push(await measureLiveBadge(product, 'Chrome'));
  } finally {
    await product.close();
  }
}
// Firefox's store build, MV2 with a persistent background page, beside Chrome's figure.
if (wanted('live') && findFirefox()) {
  await buildQuietly({ browser: 'firefox' });
  const product = await startProduct({ browser: 'firefox' });
  try {
    liveBadges.push(await measureLiveBadge(product, 'Firefox'));
  } finally {
    await product.close();
  }
}
await area('polling', () => measurePolling());
await area('service', () => measureService({ ...SERVICE_DEFAULTS, runs: serviceRuns, backends: serviceBackends }));
await area('depth', () => measureDepth());
await area('bulk', () => measureBulk());
await area('quiet', () => measureQuiet());
await area('live', () => measureLive(liveBadges));
const noCluster = clusterUnavailable();
if (wanted('cluster') && noCluster) say(`cluster: not measured, ${noCluster}.`);
else await area('cluster', () => measureCluster());

const finished = { seconds: Math.round((performance.now() - started) / 1000), loadAverage: loadAverage(), timings };
say('');
say(renderTable(sections));
for (const note of sections.flatMap((section) => section.notes ?? [])) say(`\n${note}`);
say('');
say(`${finished.seconds} s in all; load average at the end: ${finished.loadAverage.join(', ')}`);
if (skipped.length > 0) say(`Not measured: ${skipped.join(', ')} (no Chromium).`);
for (const { area: name, error } of failed) say(`Failed: ${name}: ${error}`);
if (failed.length > 0) process.exitCode = 1;

if (!values.only) {
  const results = { date: new Date().toISOString(), machine, finished, skipped, failed, sections };
  writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
  say('Written to bench/results.json');
}
