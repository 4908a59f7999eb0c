// page.js - what both pages of carc serve (the game, carc.js; the lobby,
// lobby.js) do alike: find and make elements, show an error, and ask the
// server (JSON both ways; the server's own error message when it refuses).
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function showError(msg) {
  const e = $('error');
  e.textContent = msg || '';
  e.hidden = !msg;
}

// The server's answer to METHOD PATH (with BODY as JSON, and HEADERS), or
// an Error with its message.
async function requestJson(method, path, body, headers = {}) {
  const opts = { method, headers: { ...headers } };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: 'the server sent no JSON (' + res.status + ')' }; }
  if (!res.ok) throw new Error(data && data.error ? data.error : 'HTTP ' + res.status);
  return data;
}
