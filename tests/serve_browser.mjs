// serve_browser.mjs - plays whole games on the page of carc serve in headless
// Chromium, by mouse clicks and key presses only, through the DevTools
// protocol over a pipe (node 18 or later).
//
//   node tests/serve_browser.mjs CHROMIUM URL VARIANT SEED SHOTS_PREFIX
//
// It opens the page, picks VARIANT and types SEED on the new-game form (you
// against the default greedy bot), plays every decision of the human seat by clicking
// what the page offers (a highlighted place twice, a deploy target, a listed
// choice, pass), waits for the bot, and prints one JSON line: the game's id
// and the scores the final table shows. With SHOTS_PREFIX it writes
// PREFIX-form.png, PREFIX-board.png (mid-game) and PREFIX-final.png.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openChromium, sleep } from './cdp_pipe.mjs';

const [chromium, url, variant, seedArg, shots] = process.argv.slice(2);
let seed = Number(seedArg) || 1;
function rand(n) { // the test's own choices, repeatable from its seed
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

const { cdp, js, quit, profile } = await openChromium(chromium, { name: 'serve_browser' });
async function until(expr, what, ms = 60000) {
  for (let t = 0; t < ms; t += 50) {
    if (await js(expr)) return;
    await sleep(50);
  }
  const err = await js("document.getElementById('error') ? document.getElementById('error').textContent : ''");
  // What the page shows, to tell a lost click from a slow server.
  const state = await js(`JSON.stringify({ waiting: document.body.getAttribute('data-waiting'),
    serial: document.body.getAttribute('data-serial'), hash: location.hash,
    form: !document.getElementById('newgame').hidden, game: !document.getElementById('game').hidden,
    start: (() => { const r = document.getElementById('start').getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); })() })`);
  quit(1, 'waited for ' + what + ' in vain' + (err ? ': ' + err : '') + ' (page: ' + state + ', last click: ' + lastClick + ')');
}
let lastClick = 'none';
// A real click in the middle of the element the selector finds (the n-th).
async function click(selector, n = 0) {
  const box = await js(`(() => { const e = document.querySelectorAll(${JSON.stringify(selector)})[${n}];
    if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});
    const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const name = (h) => h ? h.tagName + (h.id ? '#' + h.id : '') + (h.className && h.className.baseVal === undefined ? '.' + h.className : '') : 'nothing';
    return {x, y, covered: hit && (hit === e || e.contains(hit)) ? '' : name(hit)}; })()`);
  if (!box) quit(1, 'nothing to click at ' + selector + ' #' + n);
  // A person could not click it either: something else is drawn over it.
  if (box.covered) quit(1, `${selector} #${n} is covered at (${Math.round(box.x)}, ${Math.round(box.y)}) by ${box.covered}`);
  lastClick = `${selector} #${n} at (${Math.round(box.x)}, ${Math.round(box.y)})`;
  for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
    await cdp('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
}
async function key(k) {
  for (const type of ['keyDown', 'keyUp'])
    await cdp('Input.dispatchKeyEvent', { type, key: k, code: (/[0-9]/.test(k) ? 'Digit' : 'Key') + k.toUpperCase(),
      text: type === 'keyDown' ? k : undefined });
}
async function wheel(selector) {
  const box = await js(`(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`);
  await cdp('Input.dispatchMouseEvent', { type: 'mouseWheel', x: box.x, y: box.y, deltaX: 0, deltaY: 100 });
}
async function shot(name) {
  if (!shots) return;
  const r = await cdp('Page.captureScreenshot', { format: 'png' });
  writeFileSync(`${shots}-${name}.png`, Buffer.from(r.data, 'base64'));
}
const count = (sel) => js(`document.querySelectorAll(${JSON.stringify(sel)}).length`);
const text = (sel) => js(`(document.querySelector(${JSON.stringify(sel)}) || {}).textContent || ''`);

await cdp('Page.enable');
await cdp('Runtime.enable');
await cdp('Page.navigate', { url: url + '?bot-delay=20' });
await until(`document.querySelector('#variants label[data-variant=${JSON.stringify(variant)}]') !== null`, 'the form');
await click(`#variants label[data-variant=${JSON.stringify(variant)}] input`);
// The seats' menus offer the kinds of agent the server lists, in its order.
const served = (await (await fetch(new URL('/api/agents', url))).json()).agents.map((a) => a.name).join(',');
const offered = await js(`[...document.querySelectorAll('.seat-kind')[0].options].map((o) => o.value).join(',')`);
if (offered !== served) quit(1, `the seat menu offers ${offered}, and GET /api/agents lists ${served}`);
// The form shows the options of the variant chosen (not of the one shown
// first, whose answer may come later) before Start is clicked.
await until(`document.getElementById('variant-title').textContent ===
  document.querySelector('#variants label[data-variant=${JSON.stringify(variant)}] .title').textContent &&
  document.querySelectorAll('#options tr').length > 0 && !document.getElementById('start').disabled`, 'the options');
// The game's seed typed into the form: the same game every run.
await click('#seed');
for (const ch of String(seedArg)) await key(ch);
await until(`document.getElementById('seed').value === ${JSON.stringify(String(seedArg))}`, 'the typed seed');
await shot('form');
await click('#start');
await until("document.body.getAttribute('data-waiting') !== null && !document.getElementById('game').hidden", 'the game');

let moves = 0, rotations = 0, midShot = false, undone = false;
for (;;) {
  await until("['human', 'over'].includes(document.body.getAttribute('data-waiting'))", 'the human seat\'s turn', 120000);
  if (await js("document.body.getAttribute('data-waiting') === 'over'")) break;
  let serial = await js("document.body.getAttribute('data-serial')");
  // Once, after a few moves: Undo takes back the last move made here (and
  // the bot's after it): the page is at an earlier decision.
  if (!undone && moves === 6 && !(await js("document.getElementById('undo').hidden"))) {
    await click('#undo');
    await until(`Number(document.body.getAttribute('data-serial')) < ${Number(serial)} && document.body.getAttribute('data-waiting') === 'human'`, 'the undone move');
    undone = true;
    serial = await js("document.body.getAttribute('data-serial')");
  }
  const spots = await count('#targets .spot');
  if (spots) {
    const n = rand(spots);
    await click('#targets .spot', n);
    await until("document.querySelector('#targets .spot.selected') !== null", 'a chosen place');
    // R and the wheel turn the tile among the turns that fit there.
    const rots = (await js("document.querySelector('#targets .spot.selected').getAttribute('data-rots')")).split(' ');
    if (rots.length > 1 && rotations < 6) {
      const before = await text('#drawn-name');
      if (rotations % 2) await wheel('#board-box'); else await key('r');
      const after = await text('#drawn-name');
      const turn = after.replace(/.* r/, '');
      if (after === before || !rots.includes(turn)) quit(1, `rotating showed '${after}' after '${before}' (fitting: ${rots})`);
      rotations++;
    }
    await click('#targets .spot.selected');
  } else {
    // Every clickable choice: targets on the board, listed choices, pass.
    const targets = await count('#targets .target'), listed = await count('#choices button'),
      pass = await js("!document.getElementById('pass').hidden");
    const n = rand(targets + listed + (pass ? 1 : 0));
    if (n < targets) {
      const several = await js(`document.querySelectorAll('#targets .target')[${n}].getAttribute('data-options').includes(' ')`);
      await click('#targets .target', n);
      if (several) { // a short list of what can be done there
        await until(`document.querySelectorAll('#choices button.here').length > 0 || document.body.getAttribute('data-serial') !== ${JSON.stringify(serial)}`, 'the options at a spot');
        const here = await count('#choices button.here');
        if (here) await click('#choices button.here', rand(here));
      }
    } else if (n < targets + listed) await click('#choices button', n - targets);
    else await click('#pass');
  }
  await until(`document.body.getAttribute('data-serial') !== ${JSON.stringify(serial)} || document.body.getAttribute('data-waiting') === 'over'`, 'the move to land');
  if (!(await js("document.getElementById('error').hidden"))) quit(1, 'the page shows an error: ' + (await text('#error')));
  moves++;
  if (!midShot && (await js("document.querySelectorAll('#board .tile').length")) >= 14) {
    await until("document.body.getAttribute('data-waiting') === 'human'", 'the human seat');
    await shot('board');
    midShot = true;
  }
}
await until("!document.getElementById('final').hidden", 'the final table');
await shot('final');
const scores = await js(`[...document.querySelectorAll('#final-table .final-score')].map((e) => e.getAttribute('data-name') + '=' + e.textContent).join(' ')`);
const id = await js("location.hash.replace('#game=', '')");
const logAwards = await count('#log li.award');
if (!undone) quit(1, 'the Undo button was never there to click');
// The record the Download link gives, opened again with Load game (the
// file chooser answered through the protocol): a new game, the same end.
const record = await js("fetch(document.getElementById('download').href).then((r) => r.text())");
if (!record.startsWith('carcassonne-record 1\n') || !record.includes('\n---\n')) quit(1, 'the download is no record: ' + record.slice(0, 80));
if (!record.includes('\nseed ' + seedArg + '\n')) quit(1, 'the record is not of the seed typed (' + seedArg + '): ' + record.slice(0, 120));
writeFileSync(join(profile, 'download.rec'), record);
const doc = await cdp('DOM.getDocument');
const input = await cdp('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '#load-file' });
await cdp('DOM.setFileInputFiles', { nodeId: input.nodeId, files: [join(profile, 'download.rec')] });
await until(`location.hash !== '#game=${id}' && !document.getElementById('final').hidden`, 'the loaded game');
const reloaded = await js(`[...document.querySelectorAll('#final-table .final-score')].map((e) => e.getAttribute('data-name') + '=' + e.textContent).join(' ')`);
if (reloaded !== scores) quit(1, `the loaded record shows ${reloaded}, the game ${scores}`);
const loaded = true;
console.log(JSON.stringify({ id, scores, moves, rotations, logAwards, undone, loaded }));
quit(0);
