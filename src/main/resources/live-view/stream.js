// Keeping several collections live through one stream, the Kubernetes way: list each, watch them all from their
// lists' resourceVersions on one EventSource (GET /streams, each event naming its watch), resume after a lost
// connection from the last event seen (EventSource sends it as Last-Event-ID, and every watch resumes after it), and
// list them all again when the server answers that its history no longer reaches back that far (an ERROR with a 410
// Status). A browser holds some six connections to a host: a watch per table would stall a page of more tables.

import { ApiError, listTable, streamRefusal, streamUrl, watchUrl } from './api.js';
import { Collection } from './collection.js';
import { Backoff, errorOf, needsTheUser } from './refusals.js';
import { keyOf } from './views.js';

const OBJECT_EVENTS = ['ADDED', 'MODIFIED', 'DELETED'];

/** How long an open stream waits for a RETRY (the server refusing it for now) before it says it is live. */
const LIVE_AFTER_MS = 300;

/**
 * The states it reports: 'listing', 'relisting', 'live', 'reconnecting', 'paused', 'failed', 'idle'.
 *
 * The listener's methods: state(name), event(view, type, row, resourceVersion) for every ADDED, MODIFIED and
 * DELETED (row: {cells, object}; the tables have it already), log(kind, text), and failed(error) when the stream as a
 * whole cannot go on by itself (a 401, or a refusal no new list mends).
 */
export class LiveStream {
  constructor(listener) {
    this.listener = listener;
    this.collections = new Map(); // key -> Collection
    this.source = null;
    this.watchedKeys = ''; // which collections the open stream watches
    this.generation = 0; // what is under way (lists, retries, streams) belongs to one generation: stop() ends it
    this.opened = 0; // streams opened: an answer about one that was replaced since is old news
    this.listRound = 0; // retries of lists that failed while the stream goes on
    this.backoff = new Backoff(); // for the stream
    this.listBackoff = new Backoff(); // for lists that fail while the others go on
    this.retryTimer = null;
    this.listTimer = null;
    this.reopenTimer = null;
    this.paused = false;
    this.progressed = false; // an event or bookmark since the last list: a 410 now is news, not a loop
    this.refusedKeys = ''; // the watches of the last stream refused outright, answered with new lists
    this.lastRefusal = ''; // what the server said when it last refused the stream for now
  }

  /**
   * Follows these views, each {type, namespace, labelSelector, table}, and no others. A collection already followed
   * goes on from where it is; a new one, or one a new table shows, is listed first (and until that list is done).
   */
  show(views) {
    const previous = this.collections;
    const shownBy = new Map();
    this.collections = new Map();
    for (const v of views) {
      const key = keyOf(v);
      if (!this.collections.has(key)) {
        this.collections.set(key, previous.get(key) || new Collection(v));
        shownBy.set(key, new Set());
      }
      shownBy.get(key).add(v.table);
    }
    for (const [key, collection] of this.collections) {
      const tables = shownBy.get(key);
      if ([...tables].some(table => !collection.tables.has(table))) {
        collection.needsList = true;
      }
      collection.tables = tables;
    }
    this.paused = false;
    this.refusedKeys = '';
    if (this.collections.size === 0) {
      this.stop();
      this.backoff.reset();
      this.listBackoff.reset();
      this.listener.state('idle');
      return;
    }
    const toList = [...this.collections.values()].filter(c => c.needsList || c.failed);
    if (toList.length) {
      this.list(toList, 'listing');
    } else {
      this.watch();
    }
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
    const unlisted = [...this.collections.values()].filter(c => c.needsList && !c.failed);
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
    clearTimeout(this.listTimer);
    this.generation++;
  }

  /** Lists the collections given (the others keep their place), then watches every one that is listed. */
  async list(collections, state) {
    this.closeStream();
    clearTimeout(this.listTimer);
    const generation = ++this.generation;
    this.listener.state(state);
    const outcome = await this.listEach(collections, state, () => generation === this.generation);
    if (outcome) {
      this.progressed = false;
      this.watch();
      this.listLater(outcome);
    }
  }

  /**
   * Lists each of collections; null when it is over (a 401, or current() turned false meanwhile), else those to
   * list again later, with why.
   */
  async listEach(collections, state, current) {
    collections.forEach(c => { c.needsList = true; });
    const listed = await Promise.allSettled(collections.map(c => listTable(c.view.type, c.view.namespace,
      c.view.labelSelector)));
    if (!current()) {
      return null;
    }
    const again = { collections: [], error: null };
    for (const [i, collection] of collections.entries()) {
      const outcome = listed[i];
      if (outcome.status === 'fulfilled') {
        this.listed(collection, outcome.value, state);
      } else if (outcome.reason?.code === 401) {
        this.failed(outcome.reason);
        return null;
      } else if (needsTheUser(outcome.reason)) {
        this.refused(collection, outcome.reason);
      } else {
        again.collections.push(collection);
        again.error = outcome.reason;
      }
    }
    return again;
  }

  listed(collection, table, state) {
    collection.resourceVersion = Number(table.resourceVersion) || 0;
    collection.shownThrough = collection.resourceVersion;
    collection.needsList = false;
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

  /**
   * Lists again later, and later, the collections whose lists failed for now, each table saying so meanwhile; the
   * stream goes on for the others, and takes them in once they are listed.
   */
  listLater({ collections, error }) {
    if (collections.length === 0) {
      this.listBackoff.reset();
      return;
    }
    const delay = this.listBackoff.next(error);
    const why = `${error.message} (${error.code} ${error.reason}); listing again in ${Math.round(delay / 1000)} s`;
    collections.forEach(c => c.tables.forEach(t => t.waiting(why)));
    this.listener.log('error', `${collections.map(c => c.label).join(', ')}: ${why}`);
    const generation = this.generation;
    const round = ++this.listRound;
    const current = () => generation === this.generation && round === this.listRound;
    clearTimeout(this.listTimer);
    this.listTimer = setTimeout(async () => {
      const still = collections.filter(c => this.collections.get(keyOf(c.view)) === c && c.needsList);
      if (!current() || still.length === 0) {
        return;
      }
      const outcome = await this.listEach(still, 'relisting', current);
      if (outcome) {
        this.watch();
        this.listLater(outcome);
      }
    }, delay);
  }

  /** The newest revision a followed collection has been listed or streamed through. */
  newest() {
    return Math.max(0, ...[...this.collections.values()].map(c => c.resourceVersion));
  }

  /** One stream of every collection listed and not refused, each from where it is; the open one if it is that. */
  watch() {
    const watched = [...this.collections.entries()].filter(([, c]) => c.watched);
    const keys = watched.map(([key]) => key).join('\n');
    if (this.source && keys === this.watchedKeys) {
      return;
    }
    this.closeStream();
    if (watched.length === 0) {
      const waiting = [...this.collections.values()].some(c => !c.failed);
      this.listener.state(waiting ? 'reconnecting' : 'failed');
      return;
    }
    this.openStream(watched.map(([, c]) => c), keys);
  }

  openStream(collections, keys) {
    const opened = ++this.opened;
    const current = () => opened === this.opened;
    const tags = new Map(); // the URL given for a watch, as events name it -> its collection
    for (const c of collections) {
      tags.set(watchUrl(c.view.type, c.view.namespace, c.view.labelSelector, c.resourceVersion), c);
    }
    const url = streamUrl([...tags.keys()]);
    const source = new EventSource(url);
    this.source = source;
    this.watchedKeys = keys;
    let lost = false; // the server ended the stream, or the network failed: the browser is coming back
    let refusing = false; // this connection is a refusal for now (a RETRY event): the browser comes back later
    let live = false;
    let liveTimer = null;
    // an answer of the stream: a refusal for now comes as an event stream too, so it is live once it says otherwise
    const isLive = () => {
      clearTimeout(liveTimer);
      if (!current() || live || refusing) {
        return;
      }
      live = true;
      this.listener.state('live');
      if (lost) {
        this.listener.log('info', `resumed after resourceVersion ${this.newest()}`);
        lost = false;
      }
    };
    source.onopen = () => {
      clearTimeout(liveTimer);
      liveTimer = setTimeout(isLive, LIVE_AFTER_MS);
    };
    source.onerror = () => {
      clearTimeout(liveTimer);
      live = false;
      if (!current()) {
        return;
      }
      if (source.readyState === EventSource.CONNECTING) {
        // the stream ended (the server ends every stream after a while) or the network failed, or the server asked
        // for patience: EventSource comes back by itself, with Last-Event-ID
        if (!lost && !refusing) {
          this.listener.log('info', `stream ended: resuming after resourceVersion ${this.newest()}`);
          lost = true;
        }
        refusing = false;
        this.listener.state('reconnecting');
      } else {
        // EventSource gave up: an answer that was no event stream (401, 403, 404...). Ask it again, to read why.
        this.closeStream();
        const closed = this.opened;
        this.explainRefusal(url, keys, () => closed === this.opened); // unless another stream came meanwhile
      }
    };
    const moved = e => {
      this.moved(e, tags);
      isLive();
    };
    for (const type of OBJECT_EVENTS) {
      source.addEventListener(type, e => {
        moved(e);
        this.onObjectEvent(type, e, tags);
      });
    }
    source.addEventListener('BOOKMARK', moved);
    source.addEventListener('ERROR', e => this.onErrorEvent(e, tags, source));
    source.addEventListener('RETRY', e => {
      const error = errorOf(JSON.parse(e.data));
      clearTimeout(liveTimer);
      refusing = true;
      this.listener.state('reconnecting');
      if (error.message !== this.lastRefusal) { // said once, not at every try
        this.listener.log('error', `the stream is refused for now: ${error.message} (${error.code} ${error.reason}); `
          + 'trying again');
        this.lastRefusal = error.message;
      }
    });
  }

  /**
   * An id moves the whole stream on: each of its watches has been sent everything through it (a watch that began
   * later than the id keeps its own start).
   */
  moved(e, tags) {
    const id = Number(e.lastEventId) || 0;
    for (const collection of tags.values()) {
      collection.resourceVersion = Math.max(collection.resourceVersion, id);
    }
    this.progressed = true;
    this.refusedKeys = '';
    this.lastRefusal = '';
    this.backoff.reset();
  }

  onObjectEvent(type, e, tags) {
    const data = JSON.parse(e.data);
    const collection = tags.get(data.watch);
    const row = (data.object?.rows || [])[0];
    if (!collection || !collection.watched || !row?.object) {
      return;
    }
    // a revision's frames carry its id on the last only: a stream cut between them sends them again when it resumes
    const revision = Number(row.object.metadata?.resourceVersion) || 0;
    if (revision && revision <= collection.shownThrough) {
      return;
    }
    collection.shownThrough = Math.max(collection.shownThrough, revision);
    const shown = { cells: row.cells || [], object: row.object };
    collection.tables.forEach(t => t.event(type, shown));
    this.listener.event(collection.view, type, shown, revision || e.lastEventId);
  }

  onErrorEvent(e, tags, source) {
    const data = JSON.parse(e.data);
    const error = errorOf(data);
    const collection = data.watch === undefined ? null : tags.get(data.watch);
    if (collection && needsTheUser(error)) {
      // this watch alone has ended (refused, or a grant withdrawn): the others go on, on a stream without it, opened
      // once the refusals that came with it have been read
      this.refused(collection, error);
      clearTimeout(this.reopenTimer);
      this.reopenTimer = setTimeout(() => {
        if (this.source === source) {
          this.watch();
        }
      }, 0);
      return;
    }
    this.closeStream();
    if (error.code === 410 && this.progressed) {
      this.listener.log('relist', `resourceVersion ${this.newest()} is older than the server's history `
        + `(410 ${error.reason}): listing again`);
      this.relistAll();
      return;
    }
    // a 410 straight after a list (history shorter than a list takes) is tried again later, not at once; so is a
    // resourceVersion the server has not reached (504)
    this.retryLater(error, true);
  }

  relistAll() {
    this.list([...this.collections.values()], 'relisting');
  }

  /** Asks the stream's URL again, to read the Status an EventSource does not show. */
  async explainRefusal(url, keys, current) {
    const error = await streamRefusal(url) || new ApiError(0, 'StreamRefused', 'the stream was refused, then served');
    if (current()) {
      this.streamRefused(error, keys);
    }
  }

  streamRefused(error, keys) {
    if (error.code === 401) {
      this.failed(error);
    } else if (error.code === 403) {
      // no watch of it was allowed: each table says so
      [...this.collections.values()].filter(c => c.watched).forEach(c => this.refused(c, error));
      this.listener.state('failed');
    } else if (!needsTheUser(error)) {
      this.retryLater(error, false);
    } else if (keys !== this.refusedKeys) {
      // a watch URL the server no longer takes (its type was deleted, say): new lists show which, in its table
      this.refusedKeys = keys;
      this.listener.log('error', `the stream was refused: ${error.message} (${error.code} ${error.reason}); `
        + 'listing every table again');
      this.relistAll();
    } else {
      this.failed(error); // the same watches refused again, every list fresh: nothing here mends it
    }
  }

  failed(error) {
    this.stop();
    this.listener.state('failed');
    this.listener.failed(error);
  }

  /** Tries again later and later: the stream, or new lists of every collection first. */
  retryLater(error, relist) {
    this.closeStream();
    if (this.paused) {
      return;
    }
    const delay = this.backoff.next(error);
    this.listener.state('reconnecting');
    this.listener.log(error.code === 410 ? 'relist' : 'error',
      `${error.message} (${error.code} ${error.reason}); ${relist ? 'listing' : 'watching'} again in `
      + `${Math.round(delay / 1000)} s`);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      if (generation === this.generation) {
        if (relist) {
          this.relistAll();
        } else {
          this.watch();
        }
      }
    }, delay);
  }

  /** Closes the stream, and forgets what was to be done with it (a retry, a reopen). */
  closeStream() {
    if (this.source) {
      this.source.close();
      this.source = null;
    }
    this.watchedKeys = '';
    this.opened++;
    clearTimeout(this.retryTimer);
    clearTimeout(this.reopenTimer);
  }
}
