// serve_board.mjs - the board of carc serve's page read as a person reads
// it, in headless Chromium (browser_page.mjs), checked against the server's
// own numbers (GET /api/games/ID):
//   - each figure on offer is drawn as its figure (the server's picture, in
//     the player's colour), faint until pointed at;
//   - pointing at one lights exactly the segments of the feature the server
//     lists for that option, and shows the points it lists, per seat; a
//     chosen place for the tile shows that place's points;
//   - the other seat's last tile is marked where the server says;
//   - the tiles-left panel shows the server's counts, the rules of a module
//     open as text;
//   - on a phone-sized screen (390 px, touch) nothing is wider than the
//     screen, the side panel is below the board, and a tap previews while a
//     second tap chooses.
//
//   node tests/serve_board.mjs CHROMIUM URL SHOTS_DIR
// Prints one JSON line of what was checked; exits 1 with the first
// difference.
import { openBrowser, sleep } from './browser_page.mjs';

const [chromium, url, shots] = process.argv.slice(2);
const VARIANT = 'all-expansions', SEED = 7;
let seed = 12345;
function rand(n) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}
function fail(msg) {
  console.error('serve_board: ' + msg);
  process.exit(1);
}
setTimeout(() => fail('timed out'), 10 * 60 * 1000).unref();

async function api(path, body) {
  const res = await fetch(new URL(path, url), body ? { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body) } : {});
  const j = await res.json();
  if (!res.ok) fail(path + ': ' + JSON.stringify(j));
  return j;
}

const game = await api('/api/games', { variant: VARIANT, seed: SEED,
  seats: [{ name: 'Ann', agent: 'human' }, { name: 'Bot', agent: 'greedy' }] });
const id = game.id;
const pageUrl = url + '?bot-delay=20#game=' + id;
const state = () => api('/api/games/' + id);

const wide = await openBrowser(chromium, { width: 1400, height: 1000, name: 'serve_board (wide)' });
await wide.go(pageUrl);
const ready = "['human', 'over'].includes(document.body.getAttribute('data-waiting'))";
await wide.until(ready, 'the page');

const seen = { figures: 0, icons: 0, features: 0, segments: 0, points: 0, nonzero: 0, places: 0, lastMoves: 0,
  moves: 0, faint: 0 };
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// What the page's preview shows: the option, the lit segments, the points.
const shown = () => wide.js(`(() => {
  const box = document.getElementById('preview');
  const lit = [...document.querySelectorAll('#board .seg.feature-hl')].map((e) => e.getAttribute('data-tile') + ':' + e.getAttribute('data-seg')).sort();
  const pts = {};
  for (const b of box.querySelectorAll('.preview-pts')) pts[b.getAttribute('data-seat')] = Number(b.textContent);
  return { option: box.hidden ? null : Number(box.getAttribute('data-option')), lit, pts,
           nothing: !!box.querySelector('.preview-points') && box.querySelector('.preview-points').textContent.startsWith('scores nothing') };
})()`);

// The page shows option o's feature and points as the server gave them.
function checkPreview(o, got, where) {
  const t = o.target;
  if (got.option !== o.i) fail(`${where}: the preview shows option ${got.option}, not ${o.i} (${o.text})`);
  const want = t.feature ? t.feature.segs.map((s) => s.tile + ':' + s.seg).sort() : [];
  if (!same(got.lit, want)) fail(`${where}: '${o.text}' lights ${got.lit.join(' ')}; the server's feature is ${want.join(' ')}`);
  if (t.feature) { seen.features++; seen.segments += want.length; }
  if (t.points) {
    const wantPts = {};
    t.points.forEach((p, seat) => { if (p) wantPts[seat] = p; });
    if (!same(got.pts, wantPts)) fail(`${where}: '${o.text}' shows points ${JSON.stringify(got.pts)}; the server's are ${JSON.stringify(t.points)}`);
    if (!Object.keys(wantPts).length && !got.nothing) fail(`${where}: '${o.text}' scores nothing, and the page does not say so`);
    seen.points++;
    if (Object.keys(wantPts).length) seen.nonzero++;
  }
}

let wideShot = false, goodShot = false;
for (let guard = 0; guard < 400; guard++) {
  await wide.until(ready, "the human seat's turn", 120000);
  if (await wide.js("document.body.getAttribute('data-waiting') === 'over'")) break;
  const st = await state();
  if (!st.last_moves || !st.modules) fail('the state has no last_moves or modules');
  if (await wide.js(`document.body.getAttribute('data-serial') !== '${st.serial}'`)) continue; // the page catches up
  // The other seat's last tile, where the server says it is.
  const bot = st.last_moves[1];
  if (bot && bot.tile) {
    const mark = await wide.js(`(() => { const e = document.querySelector('#last-moves .last-move[data-seat="1"]');
      return e ? e.getAttribute('data-x') + ',' + e.getAttribute('data-y') : null; })()`);
    if (mark !== bot.tile.x + ',' + bot.tile.y) fail(`the bot's last tile is at ${bot.tile.x},${bot.tile.y}; the page marks ${mark}`);
    seen.lastMoves++;
  }
  if (await wide.js("document.querySelector('#last-moves .last-move[data-seat=\"0\"]') !== null"))
    fail("the page marks the deciding seat's own last move");
  const opts = st.decision.options;
  const spots = await wide.js("document.querySelectorAll('#targets .spot').length");
  const serial = String(st.serial);
  if (spots) {
    await wide.click('#targets .spot', rand(spots));
    await wide.until("document.querySelector('#targets .spot.selected') !== null", 'a chosen place');
    const got = await shown();
    const o = opts[got.option];
    if (!o || o.target.kind !== 'place') fail('a chosen place previews no place option: ' + JSON.stringify(got));
    checkPreview(o, got, 'a chosen place');
    seen.places++;
    await wide.click('#targets .spot.selected');
  } else {
    const n = await wide.js("document.querySelectorAll('#targets .target').length");
    if (n) {
      // Every mark is a figure's picture, faint until pointed at.
      await wide.cdp('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 2, y: 2 });
      for (let k = 0; k < n; k++) {
        const m = await wide.js(`(() => { const g = document.querySelectorAll('#targets .target')[${k}];
          return { options: g.getAttribute('data-options').split(' ').map(Number), opacity: Number(getComputedStyle(g).opacity),
                   icon: g.querySelector('.figure-icon') ? g.querySelector('.figure-icon').innerHTML : '' }; })()`);
        const o = opts[m.options[0]];
        if (!m.icon) fail(`'${o.text}' is drawn with no figure`);
        if (m.opacity >= 1) fail(`'${o.text}' is not faint before it is pointed at (opacity ${m.opacity})`);
        seen.faint++;
        if (o.target.icon) {
          // The server's picture, in the colour it gave (the player's for a follower).
          const fill = o.target.figure === 'follower' ? st.players[st.decision.seat].colour : null;
          if (fill && !m.icon.includes(fill)) fail(`'${o.text}': the follower is not in ${fill}: ${m.icon.slice(0, 200)}`);
          seen.icons++;
        }
        seen.figures++;
        await wide.hover('#targets .target', k);
        const opacity = await wide.js(`Number(getComputedStyle(document.querySelectorAll('#targets .target')[${k}]).opacity)`);
        await sleep(200); // the fade of .15 s
        checkPreview(o, await shown(), 'pointing at a figure');
        if (opacity === undefined) fail('no opacity');
        // The screenshot: a follower's city lit, or better, a feature whose
        // move scores at once.
        const scores = o.target.feature && o.target.points && o.target.points.some((p) => p !== 0);
        const city = o.target.figure === 'follower' && o.target.feature && o.target.feature.kind === 'city' &&
          o.target.feature.segs.length > 2 && seen.moves > 16;
        if (shots && ((scores && !goodShot) || (city && !wideShot))) {
          await wide.shot(shots + '/board-wide.png');
          wideShot = true;
          goodShot = goodShot || scores;
        }
      }
    }
    // Then a choice, as serve_browser.mjs makes them.
    const listed = await wide.js("document.querySelectorAll('#choices button').length");
    const pass = await wide.js("!document.getElementById('pass').hidden");
    const k = rand(n + listed + (pass ? 1 : 0));
    if (k < n) {
      const several = await wide.js(`document.querySelectorAll('#targets .target')[${k}].getAttribute('data-options').includes(' ')`);
      await wide.click('#targets .target', k);
      if (several) {
        await wide.until(`document.querySelectorAll('#choices button.here').length > 0 || document.body.getAttribute('data-serial') !== '${serial}'`, 'the options at a spot');
        const here = await wide.js("document.querySelectorAll('#choices button.here').length");
        if (here) await wide.click('#choices button.here', rand(here));
      }
    } else if (k < n + listed) await wide.click('#choices button', k - n);
    else await wide.click('#pass');
  }
  await wide.until(`document.body.getAttribute('data-serial') !== '${serial}' || document.body.getAttribute('data-waiting') === 'over'`, 'the move (after ' + (spots ? 'a place' : 'a choice') + ' at ' + serial + ')');
  seen.moves++;
  if (seen.moves >= 60 && seen.nonzero >= 1 && seen.features >= 10 && wideShot) break;
}
if (seen.features < 10 || seen.nonzero < 1 || seen.lastMoves < 10 || seen.icons < 10 || seen.places < 10)
  fail('too little was checked: ' + JSON.stringify(seen));

// The tiles left: the server's counts, type by type.
await wide.until(ready, 'the page');
const tiles = await api('/api/games/' + id + '/tiles');
await wide.click('#show-tiles');
await wide.until("!document.getElementById('tiles-panel').hidden", 'the tiles panel');
const panel = await wide.js(`[...document.querySelectorAll('#tiles-panel .tile-left')].map((e) => e.getAttribute('data-type') + '=' + e.getAttribute('data-left')).join(' ')`);
const wantPanel = tiles.types.map((t) => t.type + '=' + t.left).join(' ');
if (panel !== wantPanel || !panel) fail(`the tiles panel shows ${panel}; the server ${wantPanel}`);
const total = tiles.types.reduce((a, t) => a + t.left, 0);
if (total !== tiles.pile_left) fail(`the tiles left add up to ${total}, the pile holds ${tiles.pile_left}`);
if (await wide.js("document.querySelector('#tiles-panel [id]') !== null")) fail('the tiles panel repeats ids of the board');
await wide.click('#show-tiles'); // and it closes again
await wide.until("document.getElementById('tiles-panel').hidden", 'the tiles panel to close');

// A module's rules, one click away, shown as text.
const docs = st0Modules(await state());
if (!docs.includes('robbers')) fail('the game lists no rules page for robbers: ' + docs.join(' '));
await wide.click('.rules-link[data-doc="robbers"]');
await wide.until("!document.getElementById('rules-panel').hidden && document.querySelector('#rules-panel h3') !== null", 'the rules page');
const heading = await wide.js("document.querySelector('#rules-panel h3').textContent");
if (heading !== 'The Robbers') fail(`the rules page's heading is '${heading}'`);
const rulesLen = await wide.js("document.getElementById('rules-panel').textContent.length");
await wide.click('#rules-panel .close-panel');
await wide.until("document.getElementById('rules-panel').hidden", 'the rules page to close');
function st0Modules(s) { return s.modules.filter((m) => m.doc).map((m) => m.name); }
wide.close();

// ---- a phone -------------------------------------------------------------------------
const phone = await openBrowser(chromium, { width: 390, height: 844, mobile: true, name: 'serve_board (phone)' });
await phone.go(pageUrl);
await phone.until(ready, 'the page on a phone');
const layout = await phone.js(`(() => { const b = document.getElementById('board-box').getBoundingClientRect(),
  s = document.getElementById('side').getBoundingClientRect();
  return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, boardBottom: b.bottom, sideTop: s.top,
           sideWidth: s.width, boardWidth: b.width }; })()`);
if (layout.scroll > layout.inner) fail(`on a phone the page is ${layout.scroll} px wide for a ${layout.inner} px screen`);
if (layout.sideTop < layout.boardBottom - 1) fail(`on a phone the side panel is beside the board: ${JSON.stringify(layout)}`);
let taps = 0, phoneShot = false;
for (let guard = 0; guard < 60 && taps < 2; guard++) {
  await phone.until(ready, "the human seat's turn on a phone", 120000);
  if (await phone.js("document.body.getAttribute('data-waiting') === 'over'")) break;
  const serial = await phone.js("document.body.getAttribute('data-serial')");
  const spots = await phone.js("document.querySelectorAll('#targets .spot').length");
  if (spots) {
    await phone.tap('#targets .spot', rand(spots));
    await phone.until("document.querySelector('#targets .spot.selected') !== null", 'a tapped place');
    await sleep(100);
    if (await phone.js(`document.body.getAttribute('data-serial') !== '${serial}'`)) fail('one tap on a place placed the tile');
    await phone.tap('#targets .spot.selected');
  } else {
    // A mark of one option: the first tap previews, the second chooses.
    const k = await phone.js(`[...document.querySelectorAll('#targets .target')].findIndex((g) => !g.getAttribute('data-options').includes(' '))`);
    if (k < 0) {
      if (await phone.js("!document.getElementById('pass').hidden")) await phone.tap('#pass');
      else await phone.tap('#choices button');
    } else {
      await phone.tap('#targets .target', k);
      await phone.until("document.body.getAttribute('data-preview') !== null", 'the preview of a tap');
      await sleep(150);
      const st = await state();
      if (String(st.serial) !== serial) fail('one tap on a figure chose it');
      const o = st.decision.options[Number(await phone.js(`document.querySelectorAll('#targets .target')[${k}].getAttribute('data-options')`))];
      const lit = await phone.js("document.querySelectorAll('#board .seg.feature-hl').length");
      if (lit !== (o.target.feature ? o.target.feature.segs.length : 0)) fail(`a tap on '${o.text}' lights ${lit} segments`);
      if (!phoneShot && shots) { await phone.shot(shots + '/board-phone.png'); phoneShot = true; }
      await phone.tap('#targets .target', k);
      taps++;
    }
  }
  await phone.until(`document.body.getAttribute('data-serial') !== '${serial}' || document.body.getAttribute('data-waiting') === 'over'`, 'a move from a phone');
}
if (taps < 2) fail('the phone never chose a figure by two taps');
phone.close();
console.log(JSON.stringify({ id, ...seen, tilesLeft: total, rulesChars: rulesLen, phone: layout, taps }));
process.exit(0);
