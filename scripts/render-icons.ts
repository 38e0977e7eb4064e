/**
 * Renders public/icon.svg into the PNG sizes the browsers ask for (public/icon/<size>.png),
 * with Chromium, so the icons come from one drawing. Run after changing the drawing:
 * `npx tsx scripts/render-icons.ts`.
 */
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const sizes = [16, 32, 48, 96, 128];
const svg = await readFile(new URL('../public/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage();
for (const size of sizes) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
  );
  await page.locator('svg').screenshot({ path: `public/icon/${size}.png`, omitBackground: true });
}
await browser.close();
