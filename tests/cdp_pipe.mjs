// cdp_pipe.mjs - headless Chromium driven through the DevTools protocol
// over a pipe (fd 3 to Chromium, fd 4 from it: JSON messages, each ended by
// a NUL byte; no port, no WebSocket), for the browser tests (node 18 or
// later). Used by serve_browser.mjs, report_browser.mjs, serve_friends.mjs
// and browser_page.mjs.
//
//   const b = await openChromium(chromium, { name, windowSize, timeoutMs });
//   await b.cdp('Page.navigate', { url });      // a command to the page
//   const v = await b.js('document.title');     // an expression's value
//   await b.send(method, params, sessionId);    // to any target (none: the browser)
//   b.onEvent(f); b.offEvent(f);                // every event Chromium sends
//   b.quit(0);                                  // kills Chromium, exits
//   b.close();                                  // kills Chromium, goes on
//
// b.profile is the browser's own temporary profile folder (removed by quit).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function openChromium(chromium, { name = 'carc', windowSize = '1400,1000', timeoutMs = 15 * 60 * 1000,
  log = console.error } = {}) {
  const profile = mkdtempSync(join(tmpdir(), `carc-${name}-chromium.`));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--remote-debugging-pipe',
    '--window-size=' + windowSize, '--user-data-dir=' + profile, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  function quit(code, msg) {
    if (msg) log(name + ': ' + msg);
    browser.removeAllListeners('exit');
    try { browser.kill('SIGKILL'); } catch (e) { /* gone */ }
    try { rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left for the OS */ }
    process.exit(code);
  }
  setTimeout(() => quit(1, 'timed out'), timeoutMs).unref();
  browser.on('exit', (code) => quit(1, 'chromium exited (' + code + ')'));

  let nextId = 1, pending = '', session;
  const waiting = new Map(), listeners = [];
  browser.stdio[4].on('data', (chunk) => {
    pending += chunk.toString('utf8');
    let nul;
    while ((nul = pending.indexOf('\0')) >= 0) {
      const msg = JSON.parse(pending.slice(0, nul));
      pending = pending.slice(nul + 1);
      if (msg.method) for (const f of [...listeners]) f(msg); /* a listener may remove itself */
      if (msg.id && waiting.has(msg.id)) {
        const w = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) w.bad(new Error(msg.error.message)); else w.ok(msg.result);
      }
    }
  });
  function send(method, params = {}, sessionId = undefined) {
    const msg = { id: nextId++, method, params };
    if (sessionId) msg.sessionId = sessionId;
    browser.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((ok, bad) => waiting.set(msg.id, { ok, bad }));
  }
  const cdp = (method, params = {}, browserLevel = false) => send(method, params, browserLevel ? undefined : session);
  function close() {
    browser.removeAllListeners('exit');
    try { browser.kill('SIGKILL'); } catch (e) { /* gone */ }
    try { rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left for the OS */ }
  }
  let page = null;
  for (let i = 0; i < 100 && !page; i++) {
    page = (await cdp('Target.getTargets', {}, true)).targetInfos.find((t) => t.type === 'page');
    if (!page) await sleep(100);
  }
  if (!page) quit(1, 'chromium shows no page');
  session = (await cdp('Target.attachToTarget', { targetId: page.targetId, flatten: true }, true)).sessionId;
  async function js(expr) {
    const r = await cdp('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error('page script: ' + JSON.stringify(r.exceptionDetails).slice(0, 300));
    return r.result.value;
  }
  const offEvent = (f) => { const i = listeners.indexOf(f); if (i >= 0) listeners.splice(i, 1); };
  return { cdp, send, js, quit, close, profile, onEvent: (f) => listeners.push(f), offEvent };
}
