// board.js - what the board of carc serve's page shows besides the tiles
// the server draws: each option's figure where it would go (its picture from
// the server, in the player's colour, faint until chosen), the feature it
// would join and the points it would score when pointed at (both from the
// server: the page computes no rule), each other seat's last move, the
// tiles left by type and the rules pages of the game's modules. carc.js
// calls it; it knows no rules either.
'use strict';

const Board = (() => {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const FIGURE_SCALE = 0.8; // the figures on offer: as large as those standing (0.75)
  const HIT_RADIUS = 8;     // a mark's clickable disc, in board units (carc.js's MARK_RADIUS)

  function svgEl(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- a person's pointer: a mouse chooses at once, a finger first previews --------

  let lastPointer = 'mouse';
  window.addEventListener('pointerdown', (e) => { lastPointer = e.pointerType || 'mouse'; }, true);
  // Whether a tap should only preview: touch input, or a phone-sized screen
  // with no hover.
  function previewFirst() {
    return lastPointer === 'touch' || lastPointer === 'pen' ||
      (window.matchMedia && window.matchMedia('(hover: none)').matches && lastPointer !== 'mouse');
  }

  // ---- the preview of one option: its feature and its points -------------------------

  let previewed = null; // the option shown, {i, ...}
  let armed = null;     // the mark a finger tapped once: the next tap chooses

  function boardSvg() { return document.querySelector('#board svg'); }

  function clearPreview() {
    previewed = null;
    const svg = boardSvg();
    if (svg) for (const e of svg.querySelectorAll('.feature-hl')) e.classList.remove('feature-hl');
    const box = document.getElementById('preview');
    if (box) { box.textContent = ''; box.hidden = true; box.removeAttribute('data-option'); }
    document.body.removeAttribute('data-preview');
  }

  // Shows option o's feature (every segment the server listed) and points.
  function preview(o, players) {
    clearPreview();
    if (!o) return;
    previewed = o;
    const t = o.target || {};
    const svg = boardSvg();
    let lit = 0;
    if (svg && t.feature) {
      for (const s of t.feature.segs) {
        const e = svg.querySelector(`.seg[data-tile="${s.tile}"][data-seg="${s.seg}"]`);
        if (e) { e.classList.add('feature-hl'); lit++; }
      }
    }
    const box = document.getElementById('preview');
    if (!box) return;
    box.hidden = false;
    box.setAttribute('data-option', o.i);
    box.appendChild(el('p', { class: 'preview-what' }, o.text));
    if (t.feature)
      box.appendChild(el('p', { class: 'preview-feature', 'data-segs': lit },
        'joins a' + (/^[aeiou]/.test(t.feature.kind) ? 'n ' : ' ') + t.feature.kind +
        (t.feature.complete ? ' (complete)' : '') + ' of ' + t.feature.segs.length + ' part' +
        (t.feature.segs.length === 1 ? '' : 's')));
    if (t.points) {
      const scoring = t.points.map((p, seat) => ({ p, seat })).filter((x) => x.p !== 0);
      const line = el('p', { class: 'preview-points' });
      if (!scoring.length) line.textContent = 'scores nothing now';
      else {
        line.append('scores now: ');
        scoring.forEach((x, k) => {
          const pl = players[x.seat] || { name: '?', colour: '#888' };
          const sw = el('span', { class: 'swatch' });
          sw.style.background = pl.colour;
          const pts = el('b', { class: 'preview-pts', 'data-seat': x.seat }, (x.p > 0 ? '+' : '') + x.p);
          if (k) line.append(', ');
          line.append(sw, ' ' + pl.name + ' ', pts);
        });
      }
      if (t.points_without_scripts) line.append(el('span', { class: 'help' }, ' (without the scripts\' own points)'));
      box.appendChild(line);
    }
    if (previewFirst() && o.target.kind !== 'place') box.appendChild(el('p', { class: 'tap-again' }, 'tap it again to choose it'));
    else if (previewFirst()) box.appendChild(el('p', { class: 'tap-again' }, 'tap the place again to lay the tile'));
    document.body.setAttribute('data-preview', o.i);
  }

  // ---- the marks: each option's figure where it would go -----------------------------

  // The picture of option o's figure, centred on (0, 0): the server's, or
  // a figure of no kind for a script's option the server could not name.
  function figurePicture(o) {
    const g = svgEl('g', { class: 'figure-icon' });
    if (o.target.icon) g.innerHTML = o.target.icon;
    else {
      g.appendChild(svgEl('circle', { r: 7, class: 'generic-figure' }));
      const q = svgEl('text', { class: 'generic-mark', y: 3.5 });
      q.textContent = '?';
      g.appendChild(q);
    }
    return g;
  }

  // Draws the marks (options grouped by spot) into layer. choose(i) plays
  // an option; list(title, options) offers several that share a spot.
  function drawMarks(layer, marks, players, choose, list) {
    clearPreview();
    for (const m of marks) {
      const o = m.options[0], t = o.target;
      // A figure at a tile corner (the barn) stands on the corner's point.
      const g = svgEl('g', { class: 'target ' + t.kind + (t.corner ? ' corner' : ''), 'data-options': m.options.map((q) => q.i).join(' '),
                             transform: `translate(${m.px} ${m.py})` });
      if (armed && armed === m.options.map((q) => q.i).join(' ')) g.classList.add('armed');
      g.appendChild(svgEl('circle', { class: 'target-hit', r: HIT_RADIUS }));
      const pic = figurePicture(o);
      pic.setAttribute('transform', `scale(${FIGURE_SCALE})`);
      g.appendChild(pic);
      if (t.kind === 'remove') {
        const x = svgEl('text', { class: 'target-remove', y: 5 });
        x.textContent = '✕';
        g.appendChild(x);
      }
      const kinds = new Set(m.options.map((q) => q.target.figure || '?'));
      if (m.options.length > 1) {
        const n = svgEl('text', { class: 'target-count', x: 9, y: -7 });
        n.textContent = kinds.size > 1 ? '+' + (kinds.size - 1) : '×' + m.options.length;
        g.appendChild(n);
      }
      const title = svgEl('title');
      title.textContent = m.options.map((q) => q.text).join('\n');
      g.appendChild(title);
      g.addEventListener('mouseenter', () => { if (!previewFirst()) preview(o, players); });
      g.addEventListener('mouseleave', () => { if (!previewFirst() && previewed === o) clearPreview(); });
      g.addEventListener('click', () => {
        const key = m.options.map((q) => q.i).join(' ');
        if (previewFirst() && armed !== key) { // a first tap: show what it does
          armed = key;
          for (const a of layer.querySelectorAll('.target.armed')) a.classList.remove('armed');
          g.classList.add('armed');
          preview(o, players);
          if (m.options.length > 1) list('Here:', m.options, true);
          return;
        }
        armed = null;
        if (m.options.length === 1) choose(o.i);
        else list('Here:', m.options, true);
      });
      layer.appendChild(g);
    }
  }

  // The points the tile would complete at the chosen place and turn (the
  // server's preview of that `place` option), or nothing.
  function previewPlace(option, players) {
    if (option && option.target && option.target.points) preview(option, players);
    else clearPreview();
  }

  // ---- every other seat's last move -------------------------------------------------

  const seenLine = new Map(); // seat -> the line of its last move already shown

  // Marks each seat's last tile and figure but the one deciding at this
  // page; a move not seen before pulses.
  function drawLastMoves(svg, state) {
    if (!svg || !state.last_moves) return;
    const layer = svgEl('g', { id: 'last-moves' });
    const me = state.decision && state.decision.human ? state.decision.seat : -1;
    for (const m of state.last_moves) {
      if (m.seat === me || m.line < 0) continue;
      const pl = state.players[m.seat];
      if (!pl) continue;
      const fresh = seenLine.has(state.id + ':' + m.seat) && seenLine.get(state.id + ':' + m.seat) !== m.line;
      seenLine.set(state.id + ':' + m.seat, m.line);
      if (m.tile) {
        const r = svgEl('rect', { class: 'last-move' + (fresh ? ' fresh' : ''), 'data-seat': m.seat,
                                  'data-x': m.tile.x, 'data-y': m.tile.y, x: m.tile.px + 2, y: m.tile.py + 2,
                                  width: m.tile.size - 4, height: m.tile.size - 4, rx: 3 });
        r.style.stroke = pl.colour;
        const title = svgEl('title');
        title.textContent = pl.name + "'s last tile";
        r.appendChild(title);
        layer.appendChild(r);
        const tag = svgEl('text', { class: 'last-move-name', x: m.tile.px + 4, y: m.tile.py + 11 });
        tag.textContent = pl.name;
        layer.appendChild(tag);
      }
      if (m.figure) {
        const c = svgEl('circle', { class: 'last-figure' + (fresh ? ' fresh' : ''), 'data-seat': m.seat,
                                    cx: m.figure.px, cy: m.figure.py, r: 12 });
        c.style.stroke = pl.colour;
        layer.appendChild(c);
      }
    }
    svg.appendChild(layer);
  }

  // ---- the tiles left ---------------------------------------------------------------

  async function showTiles(gameId) {
    const box = document.getElementById('tiles-panel');
    if (!box.hidden && box.getAttribute('data-game') === gameId) { box.hidden = true; return; }
    const res = await fetch('/api/games/' + gameId + '/tiles');
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || 'HTTP ' + res.status);
    box.textContent = '';
    box.setAttribute('data-game', gameId);
    let total = 0;
    const grid = el('div', { class: 'tiles-grid' });
    for (const t of data.types) {
      total += t.left;
      const cell = el('figure', { class: 'tile-left', 'data-type': t.type, 'data-left': t.left });
      const svg = svgEl('svg', { viewBox: '0 0 100 100', width: 44, height: 44 });
      svg.innerHTML = t.svg;
      // The pictures' segments are not the board's: no id may clash with it.
      for (const e of svg.querySelectorAll('[id]')) e.removeAttribute('id');
      cell.append(svg, el('figcaption', {}, '×' + t.left));
      cell.title = t.type + ': ' + t.left + ' of ' + t.of;
      grid.appendChild(cell);
    }
    box.append(el('h3', {}, 'Tiles to come: ' + total),
      el('p', { class: 'help' }, 'how many of each are still in the pile (not their order)'), grid);
    box.setAttribute('data-total', total);
    box.hidden = false;
  }

  // ---- the rules pages ------------------------------------------------------------

  // Markdown shown as text: headings, lists, code, paragraphs; every piece
  // of the file goes in through textContent, so nothing in it runs.
  function inline(parent, text) {
    const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/);
    for (const p of parts) {
      if (/^`[^`]+`$/.test(p)) parent.appendChild(el('code', {}, p.slice(1, -1)));
      else if (/^\*\*[^*]+\*\*$/.test(p)) parent.appendChild(el('strong', {}, p.slice(2, -2)));
      else if (p) parent.appendChild(document.createTextNode(p));
    }
  }
  function renderMarkdown(md) {
    const out = el('div', { class: 'markdown' });
    const lines = md.split('\n');
    let para = null, listEl = null, code = null;
    const flush = () => { para = null; listEl = null; };
    for (const line of lines) {
      if (code) {
        if (/^```/.test(line)) { code = null; continue; }
        code.textContent += line + '\n';
        continue;
      }
      if (/^```/.test(line)) { flush(); code = el('code'); const pre = el('pre'); pre.appendChild(code); out.appendChild(pre); continue; }
      const h = line.match(/^(#{1,4})\s+(.*)$/);
      if (h) { flush(); const e = el('h' + (h[1].length + 2)); inline(e, h[2]); out.appendChild(e); continue; }
      const li = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
      if (li) {
        if (!listEl) { para = null; listEl = el('ul'); out.appendChild(listEl); }
        const e = el('li'); inline(e, li[1]); listEl.appendChild(e);
        continue;
      }
      if (!line.trim()) { flush(); continue; }
      if (listEl && /^\s+/.test(line)) { inline(listEl.lastChild, ' ' + line.trim()); continue; }
      if (/^\|/.test(line)) { flush(); out.appendChild(el('pre', { class: 'md-table' }, line)); continue; }
      if (!para) { listEl = null; para = el('p'); out.appendChild(para); } else para.append(' ');
      inline(para, line.trim());
    }
    return out;
  }

  async function showRules(name) {
    const box = document.getElementById('rules-panel');
    const res = await fetch('/api/docs/' + encodeURIComponent(name));
    const text = await res.text();
    if (!res.ok) {
      let msg = 'HTTP ' + res.status;
      try { msg = JSON.parse(text).error; } catch (e) { /* the status says it */ }
      throw new Error(msg);
    }
    box.textContent = '';
    const close = el('button', { type: 'button', class: 'close-panel' }, 'Close');
    close.onclick = () => { box.hidden = true; };
    box.append(close, renderMarkdown(text));
    box.setAttribute('data-doc', name);
    box.hidden = false;
    box.scrollTop = 0;
  }

  // The buttons of the game's modules that have a rules page.
  function drawModules(state, onError) {
    const box = document.getElementById('modules');
    if (!box || box.getAttribute('data-game') === state.id) return;
    box.setAttribute('data-game', state.id);
    box.textContent = '';
    const docs = (state.modules || []).filter((m) => m.doc);
    if (!docs.length) return;
    box.append('Rules: ');
    for (const m of docs) {
      const b = el('button', { type: 'button', class: 'rules-link', 'data-doc': m.name }, m.name);
      b.onclick = () => showRules(m.name).catch((e) => onError(e.message));
      box.appendChild(b);
    }
  }

  return { drawMarks, preview, previewPlace, clearPreview, drawLastMoves, showTiles, showRules, drawModules,
           renderMarkdown, previewFirst };
})();
