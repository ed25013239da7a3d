// Keeping several collections live through one stream, the Kubernetes way: list each, watch them all from their
// lists' resourceVersions on one EventSource (GET /streams, each event naming its watch), resume after a lost
// connection from the last event seen (EventSource sends it as Last-Event-ID, and every watch resumes after it), and
// list them all again when the server answers that its history no longer reaches back that far (an ERROR with a 410
// Status). A browser holds some six connections to a host: a watch per table would stall a page of more tables.

import { ApiError, listTable, streamUrl, watchUrl } from './api.js';
import { describe, keyOf } from './views.js';

const MAX_BACKOFF_MS = 30000;
const OBJECT_EVENTS = ['ADDED', 'MODIFIED', 'DELETED'];

/** One collection followed, and the tables that show it: each has reset(listed), event(type, row), failed(error). */
class Collection {
  constructor(v) {
    this.view = v;
    this.label = describe(v);
    this.tables = new Set();
    this.resourceVersion = 0; // listed and seen through this revision
    this.failed = false; // refused in a way only the user can mend (403, a bad selector): out of the stream
  }
}

/**
 * The states it reports: 'listing', 'relisting', 'live', 'reconnecting', 'paused', 'failed', 'idle'.
 *
 * The listener's methods: state(name), event(view, type, row, resourceVersion) for every ADDED, MODIFIED and
 * DELETED (row: {cells, object}; the tables have it already), log(kind, text), and failed(error) when the stream as a
 * whole cannot go on by itself (a 401, or a refusal of every watch).
 */
export class LiveStream {
  constructor(listener) {
    this.listener = listener;
    this.collections = new Map(); // key -> Collection
    this.source = null;
    this.generation = 0;
    this.backoff = 1000;
    this.retryTimer = null;
    this.paused = false;
    this.progressed = false; // an event or bookmark since the last list: a 410 now is news, not a loop
  }

  /**
   * Follows these views, each {type, namespace, labelSelector, table}. A collection already followed for the same
   * tables goes on from where it is; a new one, or one a new table shows, is listed first.
   */
  show(views) {
    const previous = this.collections;
    const tablesBefore = new Map();
    this.collections = new Map();
    for (const v of views) {
      const key = keyOf(v);
      let collection = this.collections.get(key);
      if (!collection) {
        collection = previous.get(key) || new Collection(v);
        tablesBefore.set(collection, collection.tables);
        collection.tables = new Set();
        this.collections.set(key, collection);
      }
      collection.tables.add(v.table);
    }
    const toList = [...this.collections.values()].filter(c => !c.resourceVersion || c.failed
      || [...c.tables].some(table => !tablesBefore.get(c).has(table)));
    this.paused = false;
    this.backoff = 1000;
    if (this.collections.size === 0) {
      this.stop();
      this.listener.state('idle');
      return;
    }
    this.list(toList, 'listing');
  }

  /** Nothing goes on while paused: a list, a retry or a stream in progress is dropped. */
  pause() {
    this.paused = true;
    this.stop();
    this.listener.state('paused');
    this.listener.log('info', this.newest() ? `paused at resourceVersion ${this.newest()}` : 'paused');
  }

  resume() {
    this.paused = false;
    const unlisted = [...this.collections.values()].filter(c => !c.resourceVersion);
    if (unlisted.length) {
      this.list(unlisted, 'listing');
      return;
    }
    this.listener.log('info', `resuming after resourceVersion ${this.newest()}`);
    this.progressed = true; // a 410 now says the pause outlived the history: list again at once
    this.watch();
  }

  stop() {
    this.closeStream();
    this.generation++;
  }

  /** Lists the collections given (the others keep their place), then watches them all. */
  async list(collections, state) {
    this.closeStream();
    const generation = ++this.generation;
    this.listener.state(state);
    const listed = await Promise.allSettled(collections.map(c => listTable(c.view.type, c.view.namespace,
      c.view.labelSelector)));
    if (generation !== this.generation) {
      return;
    }
    const again = [];
    for (const [i, collection] of collections.entries()) {
      const outcome = listed[i];
      if (outcome.status === 'fulfilled') {
        this.listed(collection, outcome.value, state);
      } else if (outcome.reason?.code === 401) {
        this.failed(outcome.reason);
        return;
      } else if (this.needsTheUser(outcome.reason)) {
        this.refused(collection, outcome.reason);
      } else {
        again.push([collection, outcome.reason]);
      }
    }
    if (again.length) {
      this.retryLater(again[0][1], again.map(([collection]) => collection));
      return;
    }
    this.progressed = false;
    this.watch();
  }

  listed(collection, table, state) {
    collection.resourceVersion = Number(table.resourceVersion) || 0;
    collection.failed = false;
    collection.tables.forEach(t => t.reset(table));
    this.listener.log(state === 'relisting' ? 'relist' : 'info',
      `${collection.label}: listed ${table.rows.length} at resourceVersion ${table.resourceVersion}`);
  }

  refused(collection, error) {
    collection.failed = true;
    collection.tables.forEach(t => t.failed(error));
    this.listener.log('error', `${collection.label}: ${error.message} (${error.code} ${error.reason})`);
  }

  /** The newest revision a followed collection has been listed or streamed through. */
  newest() {
    return Math.max(0, ...[...this.collections.values()].map(c => c.resourceVersion));
  }

  /** One stream for every collection not refused, each from where it is. */
  watch() {
    this.closeStream();
    const generation = this.generation;
    const watched = new Map(); // the URL given for a watch, as events name it -> its collection
    for (const collection of this.collections.values()) {
      if (!collection.failed) {
        const v = collection.view;
        watched.set(watchUrl(v.type, v.namespace, v.labelSelector, collection.resourceVersion), collection);
      }
    }
    if (watched.size === 0) {
      this.listener.state('failed');
      return;
    }
    const url = streamUrl([...watched.keys()]);
    const source = new EventSource(url);
    this.source = source;
    let lost = false;
    source.onopen = () => {
      this.listener.state('live');
      if (lost) {
        this.listener.log('info', `resumed after resourceVersion ${this.newest()}`);
        lost = false;
      }
    };
    source.onerror = () => {
      if (generation !== this.generation || source !== this.source) {
        return;
      }
      if (source.readyState === EventSource.CONNECTING) {
        // the stream ended (the server ends every stream after a while) or the network failed: EventSource comes
        // back by itself, with Last-Event-ID
        if (!lost) {
          this.listener.log('info', `stream ended: resuming after resourceVersion ${this.newest()}`);
        }
        lost = true;
        this.listener.state('reconnecting');
      } else {
        // EventSource gave up: an answer that was no event stream (401, 403, 400...). Ask it again, to read why.
        this.closeStream();
        this.explainRefusal(url, generation);
      }
    };
    for (const type of OBJECT_EVENTS) {
      source.addEventListener(type, e => this.onObjectEvent(type, e, watched));
    }
    source.addEventListener('BOOKMARK', e => this.moved(e, watched));
    source.addEventListener('ERROR', e => this.onErrorEvent(e, watched));
  }

  /**
   * An id moves the whole stream on: each of its watches has been sent everything through it (a watch that began
   * later than the id keeps its own start).
   */
  moved(e, watched) {
    const id = Number(e.lastEventId) || 0;
    for (const collection of watched.values()) {
      collection.resourceVersion = Math.max(collection.resourceVersion, id);
    }
    this.progressed = true;
    this.backoff = 1000;
  }

  onObjectEvent(type, e, watched) {
    const data = JSON.parse(e.data);
    const collection = watched.get(data.watch);
    const row = (data.object?.rows || [])[0];
    this.moved(e, watched);
    if (!collection || collection.failed || !row?.object) {
      return;
    }
    const shown = { cells: row.cells || [], object: row.object };
    collection.tables.forEach(t => t.event(type, shown));
    this.listener.event(collection.view, type, shown, row.object.metadata?.resourceVersion || e.lastEventId);
  }

  onErrorEvent(e, watched) {
    const data = JSON.parse(e.data);
    const status = data.object || {};
    const error = new ApiError(status.code || 0, status.reason || 'Error', status.message || 'watch failed');
    const collection = data.watch === undefined ? null : watched.get(data.watch);
    if (collection && error.code !== 410) {
      // this watch alone has ended (a grant withdrawn): the others go on, on a stream without it
      this.refused(collection, error);
      this.watch();
      return;
    }
    this.closeStream();
    if (error.code === 410 && this.progressed) {
      this.listener.log('relist', `resourceVersion ${this.newest()} is older than the server's history `
        + `(410 ${error.reason}): listing again`);
      this.relistAll();
      return;
    }
    // a 410 straight after a list (history shorter than a list takes) is tried again later, not at once
    this.retryLater(error, [...this.collections.values()]);
  }

  relistAll() {
    for (const collection of this.collections.values()) {
      collection.resourceVersion = 0;
    }
    this.list([...this.collections.values()], 'relisting');
  }

  /** Opens the stream's URL again with fetch, which reads the Status an EventSource does not show. */
  async explainRefusal(url, generation) {
    const abort = new AbortController();
    try {
      const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', signal: abort.signal,
        headers: { Accept: 'text/event-stream' } });
      if (generation !== this.generation) {
        abort.abort();
        return;
      }
      if (response.ok) {
        abort.abort(); // served this time: try the stream again, later
        this.retryLater(new ApiError(0, 'StreamRefused', 'the stream was refused, then served'), []);
        return;
      }
      let status = {};
      try {
        status = await response.json();
      } catch (e) {
        // no Status
      }
      const error = new ApiError(response.status, status.reason || '', status.message || response.statusText);
      if (this.needsTheUser(error) && error.code === 403) {
        // every watch was refused: each table says so
        [...this.collections.values()].filter(c => !c.failed).forEach(c => this.refused(c, error));
        this.listener.state('failed');
      } else if (this.needsTheUser(error)) {
        this.failed(error);
      } else {
        this.retryLater(error, []);
      }
    } catch (e) {
      if (generation === this.generation) {
        this.retryLater(new ApiError(0, 'Unreachable', 'the gateway could not be reached'), []);
      }
    }
  }

  /** A refusal of the request itself (4xx but timeouts, conflicts, expiry and throttling) needs the user. */
  needsTheUser(error) {
    return error.code >= 400 && error.code < 500 && ![408, 409, 410, 429].includes(error.code);
  }

  failed(error) {
    this.stop();
    this.listener.state('failed');
    this.listener.failed(error);
  }

  /** Tries again later and later: lists those given (all of them, after a 410), then the stream of them all. */
  retryLater(error, toList) {
    this.closeStream();
    if (this.paused) {
      return;
    }
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.listener.state('reconnecting');
    this.listener.log(error.code === 410 ? 'relist' : 'error',
      `${error.message} (${error.code} ${error.reason}); ${toList.length ? 'listing' : 'watching'} again in `
      + `${Math.round(delay / 1000)} s`);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      if (generation !== this.generation) {
        return;
      }
      if (error.code === 410) {
        this.relistAll();
      } else if (toList.length) {
        this.list(toList, 'relisting');
      } else {
        this.watch();
      }
    }, delay);
  }

  closeStream() {
    if (this.source) {
      this.source.close();
      this.source = null;
    }
    clearTimeout(this.retryTimer);
  }
}
