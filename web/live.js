// live.js - the people side of the page of carc serve: whose page this is
// (a seat's link, the host's, a spectator's), the secrets it holds, the live
// stream of the game (server-sent events, reconnecting by itself from the
// last event seen), and the panel of the players' links and the host's
// controls. carc.js draws the game; it asks this file which seats the page
// may move and which secret goes with a request.
'use strict';

const Live = (() => {
  let gameId = null;
  let own = null;           // the secret of the link this page was opened with
  const seatKeys = {};       // seat -> secret: the seats this page moves
  let hostKey = null;
  let source = null;         // the EventSource
  let onChange = null;

  const store = (id) => 'carc-links-' + id;

  // Another game in this tab: the secrets of the last one are not its own.
  function switchTo(id) {
    if (id === gameId) return;
    gameId = id;
    own = null;
    hostKey = null;
    for (const k of Object.keys(seatKeys)) delete seatKeys[k];
    recall(id);
  }

  // The secrets this page holds for game id, kept for the tab's life
  // (sessionStorage: gone with the tab, never sent anywhere but here).
  function remember(id) {
    try {
      sessionStorage.setItem(store(id), JSON.stringify({ own, seatKeys, hostKey }));
    } catch (e) { /* private mode: the page still plays until it is closed */ }
  }

  function recall(id) {
    try {
      const s = JSON.parse(sessionStorage.getItem(store(id)) || 'null');
      if (!s) return;
      own = own || s.own;
      Object.assign(seatKeys, s.seatKeys || {});
      hostKey = hostKey || s.hostKey;
    } catch (e) { /* nothing kept */ }
  }

  function keyOf(link) { const m = /[#&]key=([0-9a-f]{32})/.exec(link || ''); return m ? m[1] : null; }

  // The game's id and secret in the page's address (#game=ID&key=KEY): the
  // secret goes to the server once (it keeps it as the game's cookie, for
  // the live stream) and out of the address bar.
  async function fromAddress() {
    const m = /game=([0-9a-f]{16})/.exec(location.hash);
    if (!m) return null;
    switchTo(m[1]);
    const k = keyOf(location.hash);
    if (k) {
      own = k;
      const res = await fetch('/api/games/' + gameId + '/claim',
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Carc-Key': k }, body: '{}' });
      const st = await res.json();
      if (!res.ok) throw new Error(st.error || 'HTTP ' + res.status);
      learn(st);
      history.replaceState(null, '', '#game=' + gameId);
    }
    return gameId;
  }

  // What a state says of this page: its seat, and (the host's) the links.
  function learn(st) {
    if (!st || !st.id) return;
    switchTo(st.id);
    if (st.you && st.you.role === 'seat' && own) seatKeys[st.you.seat] = own;
    if (st.you && st.you.role === 'host' && own && !hostKey) hostKey = own;
    if (st.links) {
      hostKey = hostKey || keyOf(st.links.host);
      // the host's page plays every person's seat it has not given away (hot-seat)
      for (const s of st.links.seats) if (!(s.seat in seatKeys)) seatKeys[s.seat] = keyOf(s.link);
    }
    remember(gameId);
  }

  function canMove(seat) { return seat in seatKeys; }
  function mine() { return Object.keys(seatKeys).map(Number); }

  // The secret to send with a request of the game: the seat's own for a
  // move, the host's for the host's requests, else this page's.
  function keyFor(path, state) {
    if (/\/(seat|end)$/.test(path)) return hostKey || own;
    if (/\/choose$/.test(path) && state && state.decision && canMove(state.decision.seat))
      return seatKeys[state.decision.seat];
    if (/\/(undo|reveal)$/.test(path) && own && state && state.you && state.you.role === 'seat') return own;
    if (/\/(undo|reveal|step)$/.test(path) && mine().length) return seatKeys[mine()[0]];
    return own || hostKey || null;
  }

  // Follows the game: onEvent(data) for each change. The browser reconnects
  // by itself after a network loss or sleep, sending the last event's id, and
  // the server sends what was missed.
  function follow(id, onEvent) {
    if (source && source.gameId === id) return;
    if (source) source.close();
    onChange = onEvent;
    source = new EventSource('/api/games/' + id + '/events');
    source.gameId = id;
    source.addEventListener('game', (e) => {
      document.body.setAttribute('data-live-event', e.lastEventId);
      try { onChange(JSON.parse(e.data)); } catch (err) { /* the next event */ }
    });
    source.onopen = () => document.body.setAttribute('data-live', 'open');
    source.onerror = () => document.body.setAttribute('data-live', 'reconnecting');
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The panel beside the board: who this page is, the players' links (the
  // host's), the votes of undo and reveal, the host's controls.
  function panel(st, act) {
    const box = document.getElementById('people');
    if (!box) return;
    box.innerHTML = '';
    const you = st.you || { role: 'none' };
    const who = you.role === 'seat' ? 'You play ' + st.players[you.seat].name
      : you.role === 'host' ? 'You are the host' : you.role === 'spectator' ? 'You are watching' : '';
    box.appendChild(el('p', { id: 'you', 'data-role': you.role }, who));
    const persons = st.players.map((p, i) => ({ p, i })).filter((x) => x.p.person);
    if (st.undo_votes && st.undo_votes.length && persons.length > 1)
      box.appendChild(el('p', { id: 'undo-votes' }, 'Undo asked by ' +
        st.undo_votes.map((s) => st.players[s].name).join(', ') + '; it is done when every player asks.'));
    if (st.links) {
      box.appendChild(el('h3', {}, 'Links to share'));
      const ul = el('ul', { id: 'links' });
      const link = (label, href, role) => {
        const li = el('li');
        li.appendChild(el('span', {}, label + ': '));
        const a = el('a', { href: location.origin + href, 'data-link': role, target: '_blank', rel: 'noopener' },
          location.origin + href);
        li.appendChild(a);
        ul.appendChild(li);
        return li;
      };
      for (const s of st.links.seats) {
        const li = link(st.players[s.seat].name, s.link, 'seat-' + s.seat);
        if (!st.finished) {
          const p = st.players[s.seat];
          const b = el('button', { type: 'button', 'data-standin': s.seat },
            p.standin ? 'Take the seat back from ' + p.standin : 'Hand to a bot');
          b.onclick = () => act('/seat', { seat: s.seat, agent: p.standin ? 'human' : 'greedy' });
          li.appendChild(b);
        }
      }
      link('Spectators', st.links.spectator, 'spectator');
      box.appendChild(ul);
      if (!st.finished) {
        const end = el('button', { type: 'button', id: 'end-game' }, 'End the game');
        end.onclick = () => { if (confirm('End the game now, with the final scoring?')) act('/end', {}); };
        box.appendChild(end);
      }
    }
    if (you.role === 'seat' && persons.length > 1 && !st.finished && !('seed' in st)) {
      const agreed = (st.reveal_votes || []).includes(you.seat);
      const b = el('button', { type: 'button', id: 'reveal', title: 'let the host see the seed and the record now' },
        agreed ? 'You let the host see the record' : 'Let the host see the record');
      b.disabled = agreed;
      b.onclick = () => act('/reveal', {});
      box.appendChild(b);
    }
  }

  return { fromAddress, learn, canMove, mine, keyFor, follow, panel, get gameId() { return gameId; } };
})();
