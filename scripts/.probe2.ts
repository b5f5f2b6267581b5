import { launchChromium } from '/work/main/scripts/chromium';
const browser = await launchChromium();
const page = await (await browser.newContext()).newPage();
const r = await page.evaluate(() => { const gl = document.createElement('canvas').getContext('webgl2')!; return { ext: gl.getSupportedExtensions(), r: gl.getParameter(gl.RENDERER) }; });
console.log(JSON.stringify(r));
await browser.close();
