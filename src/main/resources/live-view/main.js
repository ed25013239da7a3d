// The live view's page: the tables the user chose (kept in the URL, so that a board can be shared), all of them fed
// by one stream, the login exchange where the gateway asks for one, and the parts that show what happens.

import { currentSession, discoverTypes, logIn, logOut, namespaceNames, renewSession } from './api.js';
import { EventLog, RateChart } from './activity.js';
import { Details } from './details.js';
import { TablePane } from './pane.js';
import { LiveStream } from './stream.js';
import { MAX_TABLES, keyOf, parametersOf, pinsOf, problemOf, urlOf, view } from './views.js';

const $ = id => document.getElementById(id);
const STATES = {
  idle: 'Not connected', listing: 'Listing', relisting: 'Relisting', live: 'Live', reconnecting: 'Reconnecting',
  paused: 'Paused', failed: 'Stopped',
};
const MAX_TIMER_MS = 2 ** 31 - 1;

let types = [];
let chosen = null; // the view the controls chose, shown in the first table; null when it cannot be shown
let chosenParameters = {}; // what the controls chose, as the URL names it: kept there, valid or not
let pinned = []; // [{view, pane, section}], shown below it
let pinsMade = 0;
let renewal = null;
let choiceTimer = null;

const log = new EventLog($('log'));
const rate = new RateChart($('rate'), $('rate-now'));
const details = new Details({ section: $('details'), title: $('details-title'), text: $('details-text'),
  yaml: $('show-yaml'), json: $('show-json') }, (pane, namespace, name) => pane.table.focusRow(namespace, name));
const chosenPane = new TablePane({ table: $('objects'), caption: $('objects-caption'), count: $('count'),
  empty: $('empty'), problem: $('problem') }, (pane, object) => details.open(pane, object));
const stream = new LiveStream({
  state: showState,
  event: (v, type, row, resourceVersion) => {
    log.event(type, row.object, resourceVersion);
    rate.count();
    details.follow(v, row.object);
  },
  log: (kind, text) => log.notice(kind, text),
  failed: error => {
    if (error.code === 401) {
      showLogin('Your session has ended: sign in again.');
    } else {
      showProblem(`${error.message} (${error.code} ${error.reason})`);
    }
  },
});

async function boot() {
  clearTimeout(renewal);
  let session = null;
  try {
    session = await currentSession();
    types = await discoverTypes();
  } catch (e) {
    if (e.code === 401 || (e.code === 403 && !session)) {
      showLogin('The gateway wants to know who is asking.');
    } else {
      showProblem(e.message);
      $('view').hidden = false;
    }
    return;
  }
  showSession(session);
  $('login').hidden = true;
  $('view').hidden = false;
  fillTypes();
  fillNamespaces();
  showFromUrl();
}

/** What the URL asks for (resource, namespace, labelSelector, and pins), in the controls and on screen. */
function showFromUrl() {
  const parameters = new URLSearchParams(location.search);
  const wanted = parameters.get('resource') || (types.some(t => t.id === 'configmaps') ? 'configmaps' : types[0]?.id);
  $('resource').value = wanted;
  $('namespace').value = parameters.get('namespace') || '';
  $('label-selector').value = parameters.get('labelSelector') || '';
  const { pins, problems } = pinsOf(parameters, types);
  problems.forEach(problem => log.notice('error', problem));
  chosenParameters = { resource: wanted, namespace: $('namespace').value, labelSelector: $('label-selector').value };
  const type = types.find(t => t.id === wanted);
  if (!type) {
    show(null, pins, `the gateway serves no resource "${wanted}" that can be listed and watched`);
    return;
  }
  show(view(type, $('namespace').value.trim(), $('label-selector').value.trim()), pins, '');
}

/** The controls' choice, on screen and in the URL (a new history entry, so Back returns to the last view). */
function showChoice() {
  clearTimeout(choiceTimer);
  const type = types.find(t => t.id === $('resource').value);
  if (!type) {
    return;
  }
  const choice = view(type, $('namespace').value.trim(), $('label-selector').value.trim());
  chosenParameters = parametersOf(choice);
  const pins = pinned.map(p => p.view);
  remember(pins);
  show(choice, pins, '');
}

/** The chosen view's parameters and these pins, in the URL. */
function remember(pins) {
  const url = urlOf(chosenParameters, pins);
  if (url !== location.pathname + location.search) {
    history.pushState(null, '', url);
  }
}

/** Shows choice (or nothing, with a problem) in the first table and pins below it, all on one stream. */
function show(choice, pins, problem) {
  setPaused(false);
  chosen = choice && !problem && !problemOf(choice) ? choice : null;
  $('namespace').disabled = Boolean(choice && !choice.type.namespaced);
  if (!chosen) {
    chosenPane.view = null;
    $('objects-caption').textContent = 'Objects';
    chosenPane.clear(problem || (choice ? problemOf(choice) : ''));
  } else if (!chosenPane.view || keyOf(chosenPane.view) !== keyOf(chosen)) {
    chosenPane.showing(chosen);
  }
  showPins(pins);
  const shown = [...(chosen ? [chosenPane] : []), ...pinned.map(p => p.pane)];
  const open = details.selected;
  if (open && (!shown.includes(open.pane) || keyOf(open.pane.view) !== keyOf(open.view))) {
    details.close(false);
  }
  showPinState();
  stream.show(shown.map(pane => ({ ...pane.view, table: pane })));
}

/** The pinned tables, in the order given: the ones shown already stay as they are. */
function showPins(pins) {
  const kept = new Map(pinned.map(p => [keyOf(p.view), p]));
  pinned = pins.map(v => kept.get(keyOf(v)) || pinnedTable(v));
  const shown = new Set(pinned);
  for (const p of kept.values()) {
    if (!shown.has(p)) {
      p.pane.table.dispose();
      p.section.remove();
    }
  }
  $('pinned').replaceChildren(...pinned.map(p => p.section));
}

function pinnedTable(v) {
  const section = $('pinned-table').content.firstElementChild.cloneNode(true);
  const part = name => section.querySelector(`.${name}`);
  const caption = `pinned-${++pinsMade}-caption`;
  part('caption').id = caption; // the table's name: not its count, nor the button beside it
  section.setAttribute('aria-labelledby', caption);
  part('objects-table').setAttribute('aria-labelledby', caption);
  const pane = new TablePane({ table: part('objects-table'), caption: part('caption'), count: part('count'),
    empty: part('empty'), problem: part('error') }, (shownBy, object) => details.open(shownBy, object));
  pane.showing(v);
  const entry = { view: v, pane, section };
  part('unpin').setAttribute('aria-label', `Unpin ${part('caption').textContent}`);
  part('unpin').addEventListener('click', () => unpin(entry));
  return entry;
}

/** Keeps the chosen table on the page, below, while the controls choose another. */
function pin() {
  if (!chosen || pinned.some(p => keyOf(p.view) === keyOf(chosen)) || pinned.length >= MAX_TABLES - 1) {
    return;
  }
  const pins = [...pinned.map(p => p.view), chosen];
  remember(pins);
  show(chosen, pins, '');
  // the Pin button is disabled now: the focus goes to what it made
  pinned[pinned.length - 1].section.querySelector('.unpin').focus();
}

function unpin(entry) {
  const pins = pinned.filter(p => p !== entry).map(p => p.view);
  remember(pins);
  showFromUrl();
  $('resource').focus();
}

function showPinState() {
  const already = chosen && pinned.some(p => keyOf(p.view) === keyOf(chosen));
  const full = pinned.length >= MAX_TABLES - 1;
  $('pin').disabled = !chosen || already || full;
  $('pin').textContent = already ? 'Pinned' : 'Pin';
  $('pin').title = full ? `${MAX_TABLES} tables at most` : 'Keep this table on the page while you choose another';
}

/** Ends what is shown: the stream and what it followed, the rows, the details; with a problem to say, if any. */
function stopShowing(problem) {
  clearTimeout(choiceTimer);
  stream.show([]);
  details.close(false);
  setPaused(false);
  chosen = null;
  chosenPane.view = null;
  chosenPane.clear(problem);
  showPins([]);
  showState('idle');
}

function showState(state) {
  $('connection').dataset.state = state;
  $('connection-text').textContent = STATES[state] || state;
  // read out, but not the routine: the server ends every stream now and then, and the page is back within a second
  if (state !== 'reconnecting' && STATES[state] !== $('announcement').textContent) {
    $('announcement').textContent = STATES[state] || state;
  }
}

function showProblem(text) {
  chosenPane.showProblem(text);
}

function setPaused(paused) {
  $('pause').dataset.paused = String(paused);
  $('pause').textContent = paused ? 'Resume' : 'Pause';
}

function fillTypes() {
  $('resource').replaceChildren(...types.map(type => {
    const option = document.createElement('option');
    option.value = type.id;
    option.textContent = `${type.id} (${type.kind})`;
    return option;
  }));
}

async function fillNamespaces() {
  const names = await namespaceNames();
  $('namespaces').replaceChildren(...names.map(name => {
    const option = document.createElement('option');
    option.value = name;
    return option;
  }));
}

// --- who is asking ---

function showLogin(message) {
  clearTimeout(renewal);
  stopShowing('');
  log.clear(); // what the last user saw is not the next one's to read
  $('namespaces').replaceChildren();
  $('view').hidden = true;
  $('user').hidden = true;
  $('login').hidden = false;
  $('login-error').textContent = message;
  $('login-error').hidden = !message;
  $('token').focus();
}

function showSession(session) {
  clearTimeout(renewal);
  $('user').hidden = !session;
  if (!session) {
    return;
  }
  $('user-name').textContent = session.user;
  // renewed at two thirds of what is left, so that an open page stays signed in (up to the session's max lifetime)
  scheduleRenewal(Math.min(MAX_TIMER_MS, Math.max(5000, session.secondsLeft * 1000 * 2 / 3)));
}

function scheduleRenewal(delay) {
  clearTimeout(renewal);
  renewal = setTimeout(async () => {
    try {
      showSession(await renewSession());
    } catch (e) {
      if (e.code === 401) {
        showLogin('Your session has ended: sign in again.');
      } else {
        scheduleRenewal(30000); // the gateway did not answer: try again before the session runs out
      }
    }
  }, delay);
}

async function signIn() {
  const token = $('token').value.trim();
  $('token').value = ''; // the page keeps no token: the cookie is the session
  try {
    if (!window.isSecureContext) {
      throw new Error('this page is not on HTTPS, and a token sent from it could be read on the way: open it '
        + 'over HTTPS');
    }
    await logIn(token);
    if (!await currentSession()) {
      throw new Error('the browser did not keep the session cookie');
    }
    await boot();
  } catch (error) {
    $('login-error').textContent = `Not signed in: ${error.message}`;
    $('login-error').hidden = false;
  }
}

$('login-form').addEventListener('submit', e => {
  e.preventDefault();
  signIn();
});
$('token').addEventListener('keydown', e => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    signIn();
  }
});

$('logout').addEventListener('click', async () => {
  stopShowing('');
  log.clear();
  clearTimeout(renewal);
  try {
    await logOut();
  } finally {
    await boot();
  }
});

// --- the controls ---

$('choice').addEventListener('submit', e => {
  e.preventDefault();
  showChoice();
});
// a keyboard walking through the list changes it at every step: the choice counts once it rests
$('resource').addEventListener('change', () => {
  clearTimeout(choiceTimer);
  choiceTimer = setTimeout(showChoice, 400);
});
$('resource').addEventListener('focus', async () => {
  // custom resources defined since the page loaded
  try {
    const fresh = await discoverTypes();
    if (fresh.map(t => t.id).join() !== types.map(t => t.id).join()) {
      const value = $('resource').value;
      types = fresh;
      fillTypes();
      $('resource').value = value;
    }
  } catch (e) {
    // the list there is still good
  }
});
$('namespace').addEventListener('focus', fillNamespaces);
$('pin').addEventListener('click', pin);
$('pause').addEventListener('click', () => {
  if (!stream.collections.size) return;
  const paused = $('pause').dataset.paused !== 'true';
  setPaused(paused);
  if (paused) stream.pause(); else stream.resume();
});
$('close-details').addEventListener('click', () => details.close());
$('details').addEventListener('keydown', e => { if (e.key === 'Escape') details.close(); });
window.addEventListener('popstate', showFromUrl);

boot();
