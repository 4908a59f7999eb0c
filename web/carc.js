// carc.js - the page of carc serve. It shows what the server sends (the
// board, the pending decision's options with their places on the board, the
// log and the scores) and sends back the number of the option the player
// picked. It knows no rules: every option comes from the server.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
// ?bot-delay=MS sets the pause before a bot's move (tests use a short one).
const BOT_DELAY_MS = Number(new URLSearchParams(location.search).get('bot-delay') || 700);
const BOARD_ZOOM = 1.5;
const MARK_RADIUS = 8; // half the width of a figure on offer, in board units (board.js)
// $, el, showError and requestJson: page.js.

let game = null;        // the state as the server sent it
let spot = null;        // the chosen place for the drawn tile: {x, y, rots: [{rot, i}], k}
let viewRot = 0;        // the turn of the drawn tile while no place is chosen
let botTimer = null;
let busy = false;

// ---- talking to the server -------------------------------------------------------

function api(method, path, body) {
  // a game's requests carry the secret of the seat (or host) they act for (live.js)
  const key = path.startsWith('/api/games/') ? Live.keyFor(path, game) : null;
  return requestJson(method, path, body, key ? { 'X-Carc-Key': key } : {});
}

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}

// ---- the new-game form -------------------------------------------------------------

// The kinds of seat, as the server lists them (GET /api/agents): name, help
// and, for a kind that takes them, examples of its settings ("NAME:SETTING").
let agentKinds = [];
let variantInfo = null;

function kindOf(name) { return agentKinds.find((a) => a.name === name); }

function seatRow(name, kind, setting) {
  const tr = el('tr', { class: 'seat' });
  const n = el('input', { class: 'seat-name', value: name, size: 10, maxlength: 31 });
  const k = el('select', { class: 'seat-kind' });
  for (const a of agentKinds) {
    const o = el('option', { value: a.name, title: a.help }, a.name === 'human' ? 'human (this page)' : a.name);
    if (a.name === kind) o.selected = true;
    k.appendChild(o);
  }
  const s = el('input', { class: 'seat-setting', value: setting || '', size: 8 });
  const showSettings = () => {
    const a = kindOf(k.value);
    s.placeholder = a && a.settings ? a.settings : '';
    s.disabled = !(a && a.settings);
  };
  k.onchange = showSettings;
  showSettings();
  const rm = el('button', { type: 'button', class: 'remove-seat' }, '✕');
  rm.onclick = () => { if ($('seats').tBodies[0].rows.length > 1) tr.remove(); };
  for (const c of [n, k, s, rm]) { const td = el('td'); td.appendChild(c); tr.appendChild(td); }
  return tr;
}

const COLOURS = ['Red', 'Blue', 'Green', 'Yellow', 'Black', 'Grey'];

// Answers may arrive out of order when the variant is changed quickly: only
// the last asked for fills the form, and Start waits for it.
let variantAsked = 0;

async function loadVariant(name) {
  const ticket = ++variantAsked;
  $('start').disabled = true;
  let info;
  try {
    info = await api('GET', '/api/variant?name=' + encodeURIComponent(name));
  } catch (e) {
    if (ticket === variantAsked) showError(e.message);
    return;
  }
  if (ticket !== variantAsked) return;
  variantInfo = info;
  $('start').disabled = false;
  showError('');
  $('variant-title').textContent = variantInfo.title;
  $('seat-range').textContent = variantInfo.min_players + ' to ' + variantInfo.max_players + ' players';
  const body = $('options').tBodies[0];
  body.textContent = '';
  for (const o of variantInfo.options) {
    const tr = el('tr', { class: 'option' });
    const td1 = el('td'); td1.appendChild(el('label', { for: 'opt-' + o.key }, o.key));
    let input;
    if (o.type === 'enum') {
      input = el('select', { id: 'opt-' + o.key, 'data-key': o.key, 'data-default': o.value });
      for (const v of o.values) {
        const op = el('option', { value: v }, v);
        if (v === o.value) op.selected = true;
        input.appendChild(op);
      }
    } else {
      input = el('input', { id: 'opt-' + o.key, type: 'number', min: o.min, max: o.max, value: o.value,
                            'data-key': o.key, 'data-default': String(o.value) });
    }
    const td2 = el('td'); td2.appendChild(input);
    const td3 = el('td', { class: 'help' }, o.help);
    tr.append(td1, td2, td3);
    body.appendChild(tr);
  }
}

async function showNewGame() {
  $('game').hidden = true;
  $('newgame').hidden = false;
  if (!$('variants').firstChild) {
    agentKinds = (await api('GET', '/api/agents')).agents;
    const data = await api('GET', '/api/variants');
    for (const v of data.variants) {
      const input = el('input', { type: 'radio', name: 'variant', value: v.name });
      if (v.name === 'base') input.checked = true;
      input.onchange = () => { $('composition').value = ''; loadVariant(v.name); };
      const label = el('label', { class: 'variant', 'data-variant': v.name });
      label.append(input, ' ' + v.name + ' ', el('span', { class: 'title' }, v.title));
      $('variants').appendChild(label);
    }
    const tb = $('seats').tBodies[0];
    tb.appendChild(seatRow('Red', 'human'));
    tb.appendChild(seatRow('Blue', 'greedy'));
    await loadVariant(chosenVariant());
  }
}

function chosenVariant() {
  const checked = document.querySelector('#variants input:checked');
  return $('composition').value.trim() || (checked ? checked.value : 'base');
}

async function startGame(ev) {
  ev.preventDefault();
  const seats = [];
  for (const tr of $('seats').tBodies[0].rows) {
    const kind = tr.querySelector('.seat-kind').value;
    const setting = tr.querySelector('.seat-setting').value.trim();
    const takesSettings = kindOf(kind) && kindOf(kind).settings;
    seats.push({ name: tr.querySelector('.seat-name').value.trim(),
                 agent: takesSettings && setting ? kind + ':' + setting : kind });
  }
  const options = {};
  for (const input of $('options').querySelectorAll('[data-key]'))
    if (input.value !== input.getAttribute('data-default'))
      options[input.getAttribute('data-key')] = input.type === 'number' ? Number(input.value) : input.value;
  const body = { variant: chosenVariant(), seats, options };
  if ($('seed').value !== '') body.seed = Number($('seed').value);
  try {
    openGame(await api('POST', '/api/games', body));
  } catch (e) {
    showError(e.message);
  }
}

// ---- the game --------------------------------------------------------------------

function openGame(state) {
  showError('');
  $('newgame').hidden = true;
  $('game').hidden = false;
  history.replaceState(null, '', '#game=' + state.id);
  spot = null;
  Live.learn(state);
  show(state);
  Live.follow(state.id, onLive);
}

// A change of the game, pushed by the server (live.js): the page shows the
// new state unless it is sending a move of its own (its answer will).
async function onLive(ev) {
  if (!game || busy) return;
  if (ev.serial === game.serial && ev.generation === game.generation &&
      (ev.undo_votes || []).length === (game.undo_votes || []).length) return;
  try { show(await api('GET', '/api/games/' + game.id)); } catch (e) { /* the next event */ }
}

// A bot's move, asked by every page that plays a seat: the first asking
// makes it, the others' (409: that decision is answered) are dropped.
async function stepBot(serial) {
  if (busy || !game || game.serial !== serial) return;
  try { show(await api('POST', '/api/games/' + game.id + '/step', { serial })); } catch (e) { /* another page did */ }
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  document.body.setAttribute('data-waiting', 'busy');
  try {
    const state = await api('POST', '/api/games/' + game.id + path, body);
    spot = null;
    showError('');
    show(state);
  } catch (e) {
    showError(e.message);
    try { show(await api('GET', '/api/games/' + game.id)); } catch (e2) { /* the message above stays */ }
  } finally {
    busy = false;
  }
}

function choose(i) {
  if (!game.decision || !game.decision.human) return;
  send('/choose', { serial: game.serial, option: i });
}

// The options grouped by where they act on the board.
function groups(d) {
  const places = new Map(), marks = new Map(), loose = [];
  for (const o of d.options) {
    const t = o.target;
    if (t.kind === 'place') {
      const key = t.x + ',' + t.y;
      if (!places.has(key)) places.set(key, { x: t.x, y: t.y, px: t.px, py: t.py, size: t.size, rots: [] });
      places.get(key).rots.push({ rot: t.rot, i: o.i });
    } else if (t.kind === 'none') {
      loose.push(o);
    } else {
      // Marks closer than a mark's width would cover each other, and the
      // one below could not be clicked: they become one mark that lists
      // what can be done there.
      let m = null;
      for (const q of marks.values())
        if (Math.hypot(q.px - t.px, q.py - t.py) < 2 * MARK_RADIUS) { m = q; break; }
      if (!m) marks.set(marks.size, m = { px: t.px, py: t.py, options: [] });
      m.options.push(o);
    }
  }
  return { places, marks, loose };
}

function fits(rots, rot) { return rots.findIndex((r) => r.rot === rot); }

function rotate(dir) {
  if (spot) {
    spot.k = (spot.k + (dir || 1) + spot.rots.length) % spot.rots.length;
    viewRot = spot.rots[spot.k].rot;
  } else if (game && game.decision && game.decision.human) {
    // Without a place chosen: the turns that fit somewhere.
    const g = groups(game.decision), ok = new Set();
    for (const p of g.places.values()) for (const r of p.rots) ok.add(r.rot);
    if (ok.size === 0) return;
    do viewRot = (viewRot + (dir || 1) + 4) % 4; while (!ok.has(viewRot));
  }
  drawOverlay();
  drawDrawn();
}

function drawDrawn() {
  const svg = $('drawn');
  svg.textContent = '';
  const d = game && game.drawn;
  $('drawn-box').hidden = !d;
  if (!d) return;
  const g = svgEl('g');
  g.innerHTML = d.svg[viewRot];
  svg.appendChild(g);
  $('drawn-name').textContent = d.type + ' r' + 90 * viewRot;
  const placing = game.decision && game.decision.human && groups(game.decision).places.size > 0;
  $('rotate').disabled = !placing;
  $('place').disabled = !(placing && spot);
}

function pickSpot(p) {
  if (spot && spot.x === p.x && spot.y === p.y) {
    choose(spot.rots[spot.k].i);
    return;
  }
  const k = fits(p.rots, viewRot);
  spot = { x: p.x, y: p.y, px: p.px, py: p.py, size: p.size, rots: p.rots, k: k >= 0 ? k : 0 };
  viewRot = spot.rots[spot.k].rot;
  drawOverlay();
  drawDrawn();
}

function listChoices(title, options, here) {
  const box = $('choices');
  box.textContent = '';
  if (options.length === 0) return;
  box.appendChild(el('p', { class: 'help' }, title));
  for (const o of options) {
    const b = el('button', { type: 'button', class: here ? 'choice here' : 'choice', 'data-option': o.i }, o.text);
    b.onclick = () => choose(o.i);
    b.onmouseenter = () => Board.preview(o, game.players);
    b.onmouseleave = () => Board.clearPreview();
    box.appendChild(b);
  }
}

function drawOverlay() {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  const old = svg.querySelector('#targets');
  if (old) old.remove();
  const layer = svgEl('g', { id: 'targets' });
  svg.appendChild(layer);
  const d = game.decision;
  if (!d || !d.human) return;
  const g = groups(d);
  for (const p of g.places.values()) {
    const r = svgEl('rect', { class: 'spot', x: p.px + 2, y: p.py + 2, width: p.size - 4, height: p.size - 4,
                              'data-x': p.x, 'data-y': p.y, 'data-rots': p.rots.map((q) => 90 * q.rot).join(' ') });
    const t = svgEl('title');
    t.textContent = p.x + ',' + p.y + ': ' + p.rots.map((q) => 'r' + 90 * q.rot).join(' ');
    r.appendChild(t);
    if (spot && spot.x === p.x && spot.y === p.y) r.classList.add('selected');
    r.addEventListener('click', () => pickSpot(p));
    layer.appendChild(r);
  }
  if (spot && game.drawn) {
    const ghost = svgEl('g', { class: 'ghost', transform: 'translate(' + spot.px + ' ' + spot.py + ') scale(' + spot.size / 100 + ')' });
    ghost.innerHTML = game.drawn.svg[spot.rots[spot.k].rot];
    layer.insertBefore(ghost, layer.firstChild);
  }
  Board.drawMarks(layer, [...g.marks.values()], game.players, choose, listChoices);
  if (spot) Board.previewPlace(d.options[spot.rots[spot.k].i], game.players);
}

function playerName(seat) { return game.players[seat] ? game.players[seat].name : '?'; }

// The figures a player holds (prisoners of the Tower), counted by owner
// and kind: "holds 2 follower of Blue".
function heldText(held) {
  const counts = new Map();
  for (const h of held) {
    const key = h.kind + ' of ' + h.owner;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts.size ? 'holds ' + [...counts].map(([k, n]) => n + ' ' + k).join(', ') : '';
}

function drawScores() {
  const tb = $('scores').tBodies[0];
  tb.textContent = '';
  for (const p of game.players) {
    const tr = el('tr', { class: 'player', 'data-seat': p.seat });
    if (game.decision && game.decision.seat === p.seat) tr.classList.add('turn');
    const sw = el('span', { class: 'swatch' });
    sw.style.background = p.colour;
    const td = el('td');
    td.append(sw, ' ' + p.name + (p.human ? '' : ' (' + p.agent + ')'));
    tr.append(td, el('td', { class: 'score', 'data-seat': p.seat }, String(p.score)),
              el('td', { class: 'help' }, p.followers >= 0 ? p.followers + ' followers' : ''),
              el('td', { class: 'held help', 'data-seat': p.seat }, heldText(p.held || [])));
    tb.appendChild(tr);
  }
}

function drawLog() {
  const ol = $('log');
  ol.textContent = '';
  for (const e of game.log) {
    let text = e.text;
    if (e.kind === 'move') text = playerName(e.seat) + ': ' + e.text;
    if (e.kind === 'draw') text = playerName(e.seat) + ' draws ' + e.text.replace(/^draw /, '');
    ol.appendChild(el('li', { class: e.kind }, text));
  }
  ol.scrollTop = ol.scrollHeight;
}

function drawFinal() {
  const box = $('final');
  box.hidden = !game.finished;
  if (!game.finished) return;
  const t = $('final-table');
  t.textContent = '';
  // One row a reason, one column a player: it stays narrow with many reasons.
  const b = game.breakdown, head = el('tr');
  head.appendChild(el('th', {}, 'points for'));
  for (const row of b.rows) head.appendChild(el('th', { 'data-seat': row.seat }, row.name));
  t.appendChild(head);
  b.reasons.forEach((reason, k) => {
    const tr = el('tr', { class: 'final-reason', 'data-reason': reason });
    tr.appendChild(el('td', {}, reason));
    for (const row of b.rows) tr.appendChild(el('td', { class: 'points' }, String(row.points[k])));
    t.appendChild(tr);
  });
  const total = el('tr', { class: 'final-total' });
  total.appendChild(el('th', {}, 'score'));
  for (const row of b.rows)
    total.appendChild(el('th', { class: 'final-score', 'data-seat': row.seat, 'data-name': row.name }, String(row.score)));
  t.appendChild(total);
}

function status() {
  if (game.failed) return 'The game stopped: ' + game.failed;
  if (game.finished) {
    const best = Math.max(...game.players.map((p) => p.score));
    return 'Game over: ' + game.players.filter((p) => p.score === best).map((p) => p.name).join(' and ') + ' won.';
  }
  const d = game.decision, who = playerName(d.seat);
  if (d.person && !d.human) return 'Turn ' + game.turn + ': waiting for ' + who + '.';
  if (!d.human) return who + ' (' + game.players[d.seat].agent + ') is thinking…';
  return 'Turn ' + game.turn + ', ' + game.pile_left + ' tiles left. ' + who + ': ' + d.label;
}

function show(state) {
  game = state;
  Live.learn(state);
  // a person's decision is this page's to answer only when it holds that
  // seat's secret; on the others' pages it waits for them
  if (game.decision) {
    game.decision.person = game.decision.human;
    game.decision.human = game.decision.human && Live.canMove(game.decision.seat);
  }
  clearTimeout(botTimer);
  document.body.setAttribute('data-serial', game.serial);
  document.body.setAttribute('data-finished', game.finished ? '1' : '0');
  $('board').innerHTML = game.board.svg;
  const board = $('board').querySelector('svg');
  board.setAttribute('width', game.board.width * BOARD_ZOOM);
  board.setAttribute('height', game.board.height * BOARD_ZOOM);
  Board.drawLastMoves(board, game);
  Board.drawModules(game, showError);
  $('status').textContent = status();
  const d = game.decision;
  if (spot && !(d && d.human)) spot = null;
  if (d && d.human) {
    const g = groups(d);
    if (g.places.size && ![...g.places.values()].some((p) => fits(p.rots, viewRot) >= 0)) rotate(1);
    const pass = d.options.find((o) => o.text === 'pass');
    $('pass').hidden = !pass;
    $('pass').onclick = () => pass && choose(pass.i);
    listChoices(d.label + ':', g.loose.filter((o) => o !== pass));
  } else {
    $('pass').hidden = true;
    listChoices('', []);
  }
  drawOverlay();
  drawDrawn();
  drawScores();
  drawLog();
  drawFinal();
  const dl = $('download');
  dl.hidden = false;
  dl.href = '/api/games/' + game.id + '/record';
  dl.setAttribute('download', 'carc-' + game.id + '.rec');
  $('undo').hidden = !Live.mine().length || game.finished;
  Live.panel(game, send);
  document.body.setAttribute('data-waiting', game.finished || game.failed ? 'over' : d.human ? 'human' : d.person ? 'other' : 'bot');
  if (d && !d.person && !game.failed && !game.finished && Live.mine().length) {
    const serial = game.serial;
    botTimer = setTimeout(() => stepBot(serial), BOT_DELAY_MS);
  }
}

async function loadFile(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    openGame(await api('POST', '/api/load', { record: await f.text() }));
  } catch (e) {
    showError(e.message);
  }
  ev.target.value = '';
}

async function start() {
  $('show-new').onclick = () => showNewGame().catch((e) => showError(e.message));
  $('newgame-form').onsubmit = startGame;
  $('composition').onchange = () => loadVariant(chosenVariant());
  $('add-seat').onclick = () => {
    const tb = $('seats').tBodies[0];
    if (tb.rows.length < 6) tb.appendChild(seatRow(COLOURS[tb.rows.length], 'greedy'));
  };
  $('load-file').onchange = loadFile;
  $('undo').onclick = () => send('/undo', {});
  $('rotate').onclick = () => rotate(1);
  $('place').onclick = () => spot && choose(spot.rots[spot.k].i);
  $('show-tiles').onclick = () => game && Board.showTiles(game.id).catch((e) => showError(e.message));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (e.key === 'r' || e.key === 'R') rotate(e.key === 'R' ? -1 : 1);
  });
  $('board-box').addEventListener('wheel', (e) => {
    if (!game || !game.decision || !game.decision.human || !game.drawn) return;
    e.preventDefault();
    rotate(e.deltaY < 0 ? -1 : 1);
  }, { passive: false });
  try {
    const id = await Live.fromAddress();
    if (id) {
      openGame(await api('GET', '/api/games/' + id));
      return;
    }
  } catch (e) {
    showError(e.message);
    return;
  }
  await showNewGame();
}

window.addEventListener('DOMContentLoaded', () => start().catch((e) => showError(e.message)));
