// The live view's page: what the user chose (kept in the URL, so that a view can be shared), the login exchange
// where the gateway asks for one, and the parts that show a live collection.

import { currentSession, discoverTypes, logIn, logOut, namespaceNames, objectText, renewSession }
  from './api.js';
import { EventLog, RateChart } from './activity.js';
import { Subscription } from './subscription.js';
import { LiveTable } from './table.js';

const $ = id => document.getElementById(id);
const STATES = {
  idle: 'Not connected', listing: 'Listing', relisting: 'Relisting', live: 'Live', reconnecting: 'Reconnecting',
  paused: 'Paused', failed: 'Stopped',
};
/** A namespace's name is a DNS label: anything else in a URL is refused, not sent on as a path. */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const MAX_TIMER_MS = 2 ** 31 - 1;

let types = [];
let subscription = null;
let chosen = null; // {type, namespace, labelSelector}
let selected = null; // {type, namespace, name, deleted}
let detailsFormat = 'yaml';
let detailsRequest = 0;
let detailsRefresh = null;
let renewal = null;
let choiceTimer = null;

const log = new EventLog($('log'));
const rate = new RateChart($('rate'), $('rate-now'));
const table = new LiveTable($('objects'), openDetails);

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

/** What the URL asks for (resource, namespace, labelSelector), in the controls and on screen. */
function showFromUrl() {
  const parameters = new URLSearchParams(location.search);
  const wanted = parameters.get('resource') || (types.some(t => t.id === 'configmaps') ? 'configmaps' : types[0]?.id);
  $('resource').value = wanted;
  $('namespace').value = parameters.get('namespace') || '';
  $('label-selector').value = parameters.get('labelSelector') || '';
  const type = types.find(t => t.id === wanted);
  if (!type) {
    stopShowing(`the gateway serves no resource "${wanted}" that can be listed and watched`);
    return;
  }
  show(type, $('namespace').value.trim(), $('label-selector').value.trim());
}

/** The controls' choice, on screen and in the URL (a new history entry, so Back returns to the last view). */
function showChoice() {
  clearTimeout(choiceTimer);
  const type = types.find(t => t.id === $('resource').value);
  if (!type) {
    return;
  }
  const namespace = type.namespaced ? $('namespace').value.trim() : '';
  const labelSelector = $('label-selector').value.trim();
  const parameters = new URLSearchParams();
  parameters.set('resource', type.id);
  if (namespace) parameters.set('namespace', namespace);
  if (labelSelector) parameters.set('labelSelector', labelSelector);
  const url = `${location.pathname}?${parameters}`;
  if (url !== location.pathname + location.search) {
    history.pushState(null, '', url);
  }
  show(type, namespace, labelSelector);
}

function show(type, namespace, labelSelector) {
  if (namespace && !NAMESPACE.test(namespace)) {
    stopShowing(`"${namespace}" is no namespace's name (lower-case letters, digits and '-', 63 at most)`);
    return;
  }
  stopShowing('');
  $('namespace').disabled = !type.namespaced;
  chosen = { type, namespace: type.namespaced ? namespace : '', labelSelector };
  $('objects-caption').textContent = `${type.plural} ${!type.namespaced ? '(cluster-scoped)'
    : namespace ? `in ${namespace}` : 'in all namespaces'}${labelSelector ? ` matching ${labelSelector}` : ''}`;
  subscription = new Subscription(type, chosen.namespace, labelSelector, {
    state: showState,
    reset: listed => {
      table.reset(listed.columns, listed.rows, type.namespaced && !chosen.namespace);
      showCount();
    },
    event: (kind, row, resourceVersion) => {
      if (kind === 'DELETED') {
        table.remove(row.object);
      } else {
        table.upsert(row, kind === 'ADDED' ? 'added' : 'modified');
      }
      log.event(kind, row.object, resourceVersion);
      rate.count();
      showCount();
      followInDetails(kind, row.object);
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
  subscription.start();
}

/** Ends what is shown: the watch, the rows, the details; with a problem to say, if any. */
function stopShowing(problem) {
  subscription?.stop();
  subscription = null;
  closeDetails(false);
  setPaused(false);
  table.reset([], [], false);
  showCount();
  showState('idle');
  showProblem(problem);
}

function showState(state) {
  $('connection').dataset.state = state;
  $('connection-text').textContent = STATES[state] || state;
  // read out, but not the routine: the server ends every watch now and then, and the page is back within a second
  if (state !== 'reconnecting' && STATES[state] !== $('announcement').textContent) {
    $('announcement').textContent = STATES[state] || state;
  }
}

function showCount() {
  $('count').textContent = `(${table.size})`;
  $('empty').hidden = table.size > 0;
}

function showProblem(text) {
  $('problem').textContent = text;
  $('problem').hidden = !text;
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

// --- the object's details, read-only ---

async function openDetails(object) {
  selected = { type: chosen.type, namespace: object.metadata?.namespace || '', name: object.metadata?.name,
    deleted: false };
  $('details').hidden = false;
  if (await showDetails()) {
    $('details-text').focus();
  }
}

/** Reads the selected object again; true when this read is still the newest once it is shown. */
async function showDetails() {
  if (!selected) {
    return false;
  }
  const request = ++detailsRequest;
  const { type, namespace, name, deleted } = selected;
  $('details-title').textContent = `${type.kind} ${namespace ? `${namespace}/` : ''}${name}${deleted ? ' (deleted)' : ''}`;
  $('show-yaml').setAttribute('aria-pressed', String(detailsFormat === 'yaml'));
  $('show-json').setAttribute('aria-pressed', String(detailsFormat === 'json'));
  if (deleted) {
    return true;
  }
  let text;
  try {
    text = await objectText(type, namespace, name, detailsFormat);
  } catch (e) {
    text = e.message;
  }
  if (request !== detailsRequest) {
    return false; // a newer read (another object, format or version) is on its way
  }
  $('details-text').textContent = text;
  return true;
}

/** The open object changed: read it again, once for a burst of changes. */
function followInDetails(kind, object) {
  if (selected && selected.name === object.metadata?.name
    && selected.namespace === (object.metadata?.namespace || '')) {
    selected.deleted = kind === 'DELETED';
    clearTimeout(detailsRefresh);
    detailsRefresh = setTimeout(showDetails, 250);
  }
}

function closeDetails(refocus = true) {
  const had = selected;
  selected = null;
  detailsRequest++;
  clearTimeout(detailsRefresh);
  $('details').hidden = true;
  $('details-text').textContent = '';
  if (had && refocus) {
    table.focusRow(had.namespace, had.name);
  }
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
$('pause').addEventListener('click', () => {
  if (!subscription) return;
  const paused = $('pause').dataset.paused !== 'true';
  setPaused(paused);
  if (paused) subscription.pause(); else subscription.resume();
});
$('show-yaml').addEventListener('click', () => { detailsFormat = 'yaml'; showDetails(); });
$('show-json').addEventListener('click', () => { detailsFormat = 'json'; showDetails(); });
$('close-details').addEventListener('click', () => closeDetails());
$('details').addEventListener('keydown', e => { if (e.key === 'Escape') closeDetails(); });
window.addEventListener('popstate', showFromUrl);

boot();
