import { launchChromium } from '/work/main/scripts/chromium';
import { serveStatic } from '/work/main/scripts/staticServer';
const server = await serveStatic('/tmp/dist_after3');
const browser = await launchChromium();
const page = await (await browser.newContext({ viewport: { width: 640, height: 360 } })).newPage();
page.on('console', (m) => console.log('[page]', m.type(), m.text().slice(0, 300)));
await page.goto(`${server.url}/index.html?mode=explore&seed=1&quality=high&t=0&ui=0`);
await page.waitForFunction(() => window.__sr?.settled() === true, null, { timeout: 240000, polling: 500 });
const r = await page.evaluate(() => {
  const app = (window as any).__sr.app; const out: any[] = [];
  app.scene.traverseVisible((o: any) => { if (o.isMesh && o.material.isBodyMaterial) out.push([o.name, Object.keys(o.material.defines).join(','), o.material.uniforms.uOcclusionStrength.value]); });
  return { n: out.length, programs: (window as any).__sr.programs(), notices: (window as any).__sr.notices(), planet: (window as any).__sr.planet() };
});
console.log(JSON.stringify(r, null, 1));
await browser.close(); server.close();
