// browser_page.mjs - headless Chromium driven through the DevTools protocol
// over a pipe (node 18 or later), for tests that use a page as a person
// would: real mouse moves, clicks and finger taps at the middle of what a
// selector finds, refused when something else covers it.
//
//   const b = await openBrowser(chromium, { width, height, mobile });
//   await b.go(url); await b.until('expr', 'what'); await b.click('#sel');
//   await b.tap('#sel'); await b.hover('#sel'); await b.shot(file); b.quit(0);
import { writeFileSync } from 'node:fs';
import { openChromium, sleep } from './cdp_pipe.mjs';

export { sleep };

export async function openBrowser(chromium, { width = 1400, height = 1000, mobile = false, name = 'test' } = {}) {
  const { cdp, js, quit, close } = await openChromium(chromium, { name, windowSize: `${width},${height}` });
  await cdp('Page.enable');
  await cdp('Runtime.enable');
  if (mobile) {
    await cdp('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 2, mobile: true });
    await cdp('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  }

  async function until(expr, what, ms = 60000) {
    for (let t = 0; t < ms; t += 50) {
      let ok = false;
      try { ok = await js(expr); } catch (e) { /* a page still loading has no body yet */ }
      if (ok) return;
      await sleep(50);
    }
    const err = await js("document.getElementById('error') ? document.getElementById('error').textContent : ''");
    quit(1, 'waited for ' + what + ' in vain' + (err ? ': ' + err : ''));
  }
  // The middle of the n-th element the selector finds, scrolled into view;
  // a person could not reach it when something else is drawn over it.
  async function spot(selector, n = 0) {
    const box = await js(`(() => { const e = document.querySelectorAll(${JSON.stringify(selector)})[${n}];
      if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});
      const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      const name = (h) => h ? h.tagName + (h.id ? '#' + h.id : '') : 'nothing';
      return {x, y, covered: hit && (hit === e || e.contains(hit)) ? '' : name(hit)}; })()`);
    if (!box) quit(1, 'nothing at ' + selector + ' #' + n);
    if (box.covered) quit(1, `${selector} #${n} is covered at (${Math.round(box.x)}, ${Math.round(box.y)}) by ${box.covered}`);
    return box;
  }
  async function hover(selector, n = 0) {
    const box = await spot(selector, n);
    await cdp('Input.dispatchMouseEvent', { type: 'mouseMoved', x: box.x, y: box.y });
  }
  // The pointer comes first: what it shows on the way (a preview that
  // changes the page's height) may move the element, found again then.
  async function click(selector, n = 0) {
    let box = await spot(selector, n);
    await cdp('Input.dispatchMouseEvent', { type: 'mouseMoved', x: box.x, y: box.y });
    await sleep(30);
    box = await spot(selector, n);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
      await cdp('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }
  // A finger's tap: touch start and end at one point (the browser makes
  // the pointer events and the click of a tap).
  async function tap(selector, n = 0) {
    const box = await spot(selector, n);
    await cdp('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x, y: box.y }] });
    await cdp('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  async function shot(file) {
    const r = await cdp('Page.captureScreenshot', { format: 'png' });
    writeFileSync(file, Buffer.from(r.data, 'base64'));
  }
  async function go(url) { await cdp('Page.navigate', { url }); }
  return { cdp, js, until, hover, click, tap, shot, go, quit, close };
}
