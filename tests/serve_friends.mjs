// serve_friends.mjs - two people and a bot play a whole game of a
// composition with expansions on carc serve's page, each person in their
// own browser context (separate cookies) opened from their own seat's link,
// and a third context follows it from the spectator link; headless Chromium
// through the DevTools protocol over a pipe (node 18 or later).
//
//   node tests/serve_friends.mjs CHROMIUM URL VARIANT SEED
//
// It checks that each move (the people's, the bot's) reaches the other
// pages live (their last live event and serial change, without reloading),
// that the spectator's page offers no move and its request of one is
// refused, that a request with one seat's secret for another seat's move
// is refused, and that no response and no live event holds the seed or the
// pile while the game is played. Prints one JSON line: the game's id and
// the final scores each page shows.
import { openChromium, sleep } from './cdp_pipe.mjs';

const [chromium, url, variant, seedArg] = process.argv.slice(2);
let seed = Number(seedArg) || 1;
function rand(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

// Every page is a browser context of its own (separate cookies), reached
// by its session; events come from all of them.
const chrome = await openChromium(chromium, { name: 'serve_friends' });
const quit = chrome.quit;
const cdp = chrome.send;

// The future must not show while the game is played: every API response
// and every live event each page gets is checked.
let over = false, checkedBodies = 0, checkedEvents = 0;
// (a state of the game over holds its seed: revealed at the end)
const future = /"seed"|\nseed |"pile"\s*:\s*\[/;
const atEnd = (text) => /"finished":true/.test(text);
const leaks = [];
chrome.onEvent(async (msg) => {
  if (over) return;
  if (msg.method === 'Network.eventSourceMessageReceived') {
    checkedEvents++;
    if (future.test(msg.params.data) && !atEnd(msg.params.data)) leaks.push('a live event: ' + msg.params.data.slice(0, 200));
  } else if (msg.method === 'Network.responseReceived' && msg.params.response.url.includes('/api/') &&
             !msg.params.response.url.endsWith('/events')) {
    const requestId = msg.params.requestId, session = msg.sessionId;
    chrome.onEvent(async function done(m) {
      if (m.method !== 'Network.loadingFinished' || m.params.requestId !== requestId) return;
      chrome.offEvent(done);
      try {
        const b = await cdp('Network.getResponseBody', { requestId }, session);
        checkedBodies++;
        if (!over && future.test(b.body) && !atEnd(b.body)) leaks.push(msg.params.response.url + ': ' + b.body.slice(0, 200));
      } catch (e) { /* gone with a navigation */ }
    });
  }
});

async function openPage(link, name) {
  const { browserContextId } = await cdp('Target.createBrowserContext', { disposeOnDetach: true });
  const { targetId } = await cdp('Target.createTarget', { url: 'about:blank', browserContextId });
  const session = (await cdp('Target.attachToTarget', { targetId, flatten: true })).sessionId;
  const p = { name, session };
  p.js = async (expr) => {
    const r = await cdp('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true }, session);
    if (r.exceptionDetails) throw new Error(name + ': page script: ' + JSON.stringify(r.exceptionDetails).slice(0, 300));
    return r.result.value;
  };
  await cdp('Page.enable', {}, session);
  await cdp('Runtime.enable', {}, session);
  await cdp('Network.enable', {}, session);
  const u = new URL(url);
  u.search = '?bot-delay=20';
  u.hash = link.slice(link.indexOf('#') + 1);
  await cdp('Page.navigate', { url: u.toString() }, session);
  return p;
}
const attr = (p, a) => p.js(`document.body.getAttribute(${JSON.stringify(a)})`);
async function until(p, expr, what, ms = 60000) {
  for (let t = 0; t < ms; t += 50) { // (a page still loading has no body yet)
    if (await p.js(`(() => { try { return ${expr}; } catch (e) { return false; } })()`)) return;
    await sleep(50);
  }
  const err = await p.js("document.getElementById('error') ? document.getElementById('error').textContent : ''");
  quit(1, `${p.name}: waited for ${what} in vain${err ? ': ' + err : ''} (waiting ${await attr(p, 'data-waiting')}, ` +
    `serial ${await attr(p, 'data-serial')}, live ${await attr(p, 'data-live')})`);
}
async function click(p, selector, n = 0) {
  const box = await p.js(`(() => { const e = document.querySelectorAll(${JSON.stringify(selector)})[${n}];
    if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});
    const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {x, y, covered: !(hit && (hit === e || e.contains(hit)))}; })()`);
  if (!box) quit(1, `${p.name}: nothing to click at ${selector} #${n}`);
  if (box.covered) quit(1, `${p.name}: ${selector} #${n} is covered`);
  for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
    await cdp('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 }, p.session);
}
const count = (p, sel) => p.js(`document.querySelectorAll(${JSON.stringify(sel)}).length`);

// The game, made by its host (the server's own caller): the links.
const made = await (await fetch(new URL('/api/games', url), { method: 'POST', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ variant, seed: Number(seedArg), seats: [{ name: 'Ann', agent: 'human' }, { name: 'Bob', agent: 'human' },
    { name: 'Cy', agent: 'greedy' }] }) })).json();
if (!made.links) quit(1, 'no links in the new game: ' + JSON.stringify(made).slice(0, 200));
const id = made.id;
const ann = await openPage(made.links.seats[0].link, 'Ann');
const bob = await openPage(made.links.seats[1].link, 'Bob');
const spectator = await openPage(made.links.spectator, 'spectator');
const pages = [ann, bob, spectator];
for (const p of pages) await until(p, "document.body.getAttribute('data-live') === 'open' && document.body.getAttribute('data-serial') !== null", 'the live game');
for (const [p, role] of [[ann, 'seat'], [bob, 'seat'], [spectator, 'spectator']])
  if (await p.js("document.getElementById('you').getAttribute('data-role')") !== role) quit(1, p.name + ' is not a ' + role);
if (await ann.js("location.hash.includes('key=')")) quit(1, "the secret stayed in Ann's address bar");

// A request of one page for a move that is not its own: refused.
async function tryMove(p, serial) {
  return p.js(`fetch('/api/games/${id}/choose', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ serial: ${serial}, option: 0 }) }).then((r) => r.status)`);
}

let moves = 0, liveSeen = 0, refusedOther = 0, refusedSpectator = 0, botMoves = 0;
for (;;) {
  // whoever's turn: one of the people's pages shows it as theirs, or a bot moves
  let mover = null;
  for (let t = 0; t < 1200 && !mover; t++) {
    for (const p of [ann, bob]) if (await attr(p, 'data-waiting') === 'human') mover = p;
    if (!mover && await attr(ann, 'data-waiting') === 'over') break;
    if (!mover) await sleep(50);
  }
  if (!mover) {
    if (await attr(ann, 'data-waiting') === 'over') break;
    quit(1, 'nobody\'s turn: ' + await attr(ann, 'data-waiting') + ' / ' + await attr(bob, 'data-waiting'));
  }
  const other = mover === ann ? bob : ann;
  const serial = await attr(mover, 'data-serial');
  await until(other, `document.body.getAttribute('data-serial') === ${JSON.stringify(serial)}`, 'the same position');
  await until(spectator, `document.body.getAttribute('data-serial') === ${JSON.stringify(serial)}`, 'the same position');
  if (await attr(other, 'data-waiting') === 'human') quit(1, 'both people may move at once');
  if (await attr(spectator, 'data-waiting') === 'human' || await count(spectator, '#targets .spot, #targets .target'))
    quit(1, 'the spectator is offered a move');
  if (moves % 5 === 0) {
    if (await tryMove(other, serial) !== 403) quit(1, `${other.name}'s secret made ${mover.name}'s move`);
    refusedOther++;
    if (await tryMove(spectator, serial) !== 403) quit(1, 'the spectator made a move');
    refusedSpectator++;
  }
  const liveBefore = [other, spectator].map((p) => p.js("document.body.getAttribute('data-live-event')"));
  const before = await Promise.all(liveBefore);
  // the move, by clicks: a highlighted place twice, or a target, a listed choice, pass
  const spots = await count(mover, '#targets .spot');
  if (spots) {
    await click(mover, '#targets .spot', rand(spots));
    await until(mover, "document.querySelector('#targets .spot.selected') !== null", 'a chosen place');
    await click(mover, '#targets .spot.selected');
  } else {
    const targets = await count(mover, '#targets .target'), listed = await count(mover, '#choices button'),
      pass = await mover.js("!document.getElementById('pass').hidden");
    const n = rand(targets + listed + (pass ? 1 : 0));
    if (n < targets) {
      const several = await mover.js(`document.querySelectorAll('#targets .target')[${n}].getAttribute('data-options').includes(' ')`);
      await click(mover, '#targets .target', n);
      if (several) {
        await until(mover, `document.querySelectorAll('#choices button.here').length > 0 || document.body.getAttribute('data-serial') !== ${JSON.stringify(serial)}`, 'the options at a spot');
        const here = await count(mover, '#choices button.here');
        if (here) await click(mover, '#choices button.here', rand(here));
      }
    } else if (n < targets + listed) await click(mover, '#choices button', n - targets);
    else await click(mover, '#pass');
  }
  await until(mover, `document.body.getAttribute('data-serial') !== ${JSON.stringify(serial)}`, 'the move to land');
  moves++;
  // the others see it live: a new event, and a later position, without a reload
  for (const [i, p] of [other, spectator].entries()) {
    await until(p, `document.body.getAttribute('data-live-event') !== ${JSON.stringify(before[i])} && Number(document.body.getAttribute('data-serial')) > ${Number(serial)}`, 'the move, live');
    liveSeen++;
  }
  const d = await ann.js("document.body.getAttribute('data-waiting')");
  if (d === 'bot') botMoves++;
  if (leaks.length) quit(1, 'the future in a response: ' + leaks[0]);
}
over = true;
for (const p of pages) await until(p, "!document.getElementById('final').hidden", 'the final table');
const finals = [];
for (const p of pages)
  finals.push(await p.js(`[...document.querySelectorAll('#final-table .final-score')].map((e) => e.getAttribute('data-name') + '=' + e.textContent).join(' ')`));
if (new Set(finals).size !== 1) quit(1, 'the pages show different final scores: ' + finals.join(' | '));
const reloads = await Promise.all(pages.map((p) => p.js('performance.getEntriesByType("navigation").length')));
if (reloads.some((n) => n !== 1)) quit(1, 'a page was reloaded');
console.log(JSON.stringify({ id, scores: finals[0], moves, liveSeen, refusedOther, refusedSpectator, checkedBodies, checkedEvents }));
quit(0);
