// lobby.js - the games of carc serve (GET /api/lobby): in progress and
// finished, with their variants, seats and scores; each opens as its host,
// downloads as a record (once it is over: a record holds the seed), and a
// record from disk uploads as a new game to continue.
'use strict';

// $, el, showError and requestJson: page.js.
const api = requestJson;

function when(t) { return new Date(t * 1000).toLocaleString(); }

function row(g) {
  const tr = el('tr', { 'data-game': g.id });
  const name = el('td');
  name.appendChild(el('strong', {}, g.title));
  name.appendChild(el('div', { class: 'help' }, g.variant));
  tr.appendChild(name);
  const seats = el('td');
  const best = Math.max(...g.seats.map((s) => s.score));
  for (const s of g.seats) {
    const who = s.agent === 'human' ? (s.standin ? 'person, ' + s.standin + ' standing in' : 'person') : s.agent;
    const d = el('div', { class: g.finished && s.score === best ? 'winner' : '' }, s.name + ' (' + who + '): ' + s.score);
    seats.appendChild(d);
  }
  tr.appendChild(seats);
  tr.appendChild(el('td', {}, String(g.serial)));
  tr.appendChild(el('td', {}, when(g.updated)));
  const acts = el('td');
  acts.appendChild(el('a', { class: 'button', href: '/#game=' + g.id, 'data-open': g.id }, g.finished ? 'Look' : 'Open'));
  if (g.finished || g.failed)
    acts.appendChild(el('a', { class: 'button', href: '/api/games/' + g.id + '/record', download: 'carc-' + g.id + '.rec' },
      'Record'));
  if (g.failed) acts.appendChild(el('div', { class: 'help' }, 'stopped: ' + g.failed));
  tr.appendChild(acts);
  return tr;
}

async function load() {
  const data = await api('GET', '/api/lobby');
  const playing = $('playing').tBodies[0], finished = $('finished').tBodies[0];
  playing.innerHTML = '';
  finished.innerHTML = '';
  for (const g of data.games) (g.finished || g.failed ? finished : playing).appendChild(row(g));
  $('lobby-note').textContent = data.stored ? ''
    : 'This server keeps no database: its games end with it (carc serve --db).';
  document.body.setAttribute('data-games', String(data.games.length));
}

async function upload(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    const st = await api('POST', '/api/load', { record: await f.text() });
    location.href = '/#game=' + st.id;
  } catch (e) {
    showError(e.message);
  }
  ev.target.value = '';
}

window.addEventListener('DOMContentLoaded', () => {
  $('load-file').onchange = upload;
  load().catch((e) => showError(e.message));
});
