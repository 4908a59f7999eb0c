// browser_page.mjs - headless Chromium driven through the DevTools protocol
// over a pipe (node 18 or later), for tests that use a page as a person
// would: real mouse moves, clicks and finger taps at the middle of what a
// selector finds, refused when something else covers it.
//
//   const b = await openBrowser(chromium, { width, height, mobile });
//   await b.go(url); await b.until('expr', 'what'); await b.click('#sel');
//   await b.tap('#sel'); await b.hover('#sel'); await b.shot(file); b.quit(0);
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function openBrowser(chromium, { width = 1400, height = 1000, mobile = false, name = 'test' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'carc-chromium.'));
  const proc = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--remote-debugging-pipe',
    `--window-size=${width},${height}`, '--user-data-dir=' + profile, 'about:blank'],
  { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  function quit(code, msg) {
    if (msg) console.error(name + ': ' + msg);
    try { proc.kill('SIGKILL'); } catch (e) { /* gone */ }
    try { rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left for the OS */ }
    process.exit(code);
  }
  proc.on('exit', (code) => quit(1, 'chromium exited (' + code + ')'));

  let nextId = 1, pending = '', session;
  const waiting = new Map();
  proc.stdio[4].on('data', (chunk) => {
    pending += chunk.toString('utf8');
    let nul;
    while ((nul = pending.indexOf('\0')) >= 0) {
      const msg = JSON.parse(pending.slice(0, nul));
      pending = pending.slice(nul + 1);
      if (msg.id && waiting.has(msg.id)) {
        const { ok, bad } = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) bad(new Error(msg.error.message)); else ok(msg.result);
      }
    }
  });
  function cdp(method, params = {}, browserLevel = false) {
    const id = nextId++;
    const msg = { id, method, params };
    if (!browserLevel) msg.sessionId = session;
    proc.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((ok, bad) => waiting.set(id, { ok, bad }));
  }
  let page = null;
  for (let i = 0; i < 100 && !page; i++) {
    page = (await cdp('Target.getTargets', {}, true)).targetInfos.find((t) => t.type === 'page');
    if (!page) await sleep(100);
  }
  if (!page) quit(1, 'chromium shows no page');
  session = (await cdp('Target.attachToTarget', { targetId: page.targetId, flatten: true }, true)).sessionId;
  await cdp('Page.enable');
  await cdp('Runtime.enable');
  if (mobile) {
    await cdp('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 2, mobile: true });
    await cdp('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  }

  async function js(expr) {
    const r = await cdp('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error('page script: ' + JSON.stringify(r.exceptionDetails).slice(0, 300));
    return r.result.value;
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
  function close() {
    proc.removeAllListeners('exit');
    try { proc.kill('SIGKILL'); } catch (e) { /* gone */ }
    try { rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left for the OS */ }
  }
  return { cdp, js, until, hover, click, tap, shot, go, quit, close };
}
