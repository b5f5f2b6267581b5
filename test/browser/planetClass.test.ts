/**
 * `class=` in planet mode (issue 41) in the production build: the planet is drawn as the class
 * asked for and the overlay names it, the URL sync keeps `class` when it writes the camera back,
 * and a bad value is named in a notice (the seed's own class is drawn).
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newPage, type Served, useBrowser } from './harness';
import { PLANET_CLASS_LABELS, planetClassOf } from '../../src/scene';

let browser: Browser;
let server: Served;

useBrowser('preview', (b, s) => ([browser, server] = [b, s]));

describe('class= in planet mode', () => {
  it('draws the class asked for, names it on the overlay, keeps it in the URL; a bad one is named in a notice', async () => {
    const own = planetClassOf(4);
    const other = own === 'ocean' ? 'desert' : 'ocean';
    const { page, log } = await newPage(browser);
    await page.goto(`${server.url}/?seed=4&mode=planet&class=${other}`);
    const expected = `planet 4: ${PLANET_CLASS_LABELS[other]} (class=${other}; its own: ${PLANET_CLASS_LABELS[own]})`;
    await expect.poll(() => page.locator('.sr-stats').innerText(), { timeout: 60_000, interval: 250 }).toContain(expected);
    expect(await page.evaluate(() => window.__sr!.planet() !== null)).toBe(true);
    // Orbiting writes the camera back; the class stays.
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(520, 320, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('cam'), { timeout: 60_000, interval: 250 }).not.toBeNull();
    expect(new URL(page.url()).searchParams.get('class')).toBe(other);
    expect(log.errors).toEqual([]);

    await page.goto(`${server.url}/?seed=4&mode=planet&class=lava`);
    await expect.poll(() => page.locator('.sr-notices').innerText(), { timeout: 60_000, interval: 250 }).toContain(
      'class "lava" is not one of moon, desert, alpine, ocean, ice, volcanic, karst',
    );
    await expect.poll(() => page.locator('.sr-stats').innerText(), { timeout: 60_000, interval: 250 }).toContain(`planet 4: ${PLANET_CLASS_LABELS[own]}`);
  });
});
