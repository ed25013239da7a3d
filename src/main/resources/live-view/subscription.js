// Keeping one collection live, the Kubernetes way: list it, watch from the list's resourceVersion, resume after a
// lost connection from the last event seen (EventSource sends it as Last-Event-ID), and list again when the server
// answers that its history no longer reaches back that far (an ERROR event with a 410 Status).

import { ApiError, collectionPath, listTable, watchUrl } from './api.js';

const MAX_BACKOFF_MS = 30000;

/**
 * The states a subscription reports: 'listing', 'relisting', 'live', 'reconnecting', 'paused', 'failed'.
 *
 * The listener's methods: state(name), reset({columns, rows, resourceVersion}) for a whole new state,
 * event(type, row, resourceVersion) for ADDED, MODIFIED and DELETED (row: {cells, object}), log(kind, text), and
 * failed(error) when it cannot go on by itself (401 and 403).
 */
export class Subscription {
  constructor(type, namespace, labelSelector, listener) {
    this.type = type;
    this.namespace = namespace;
    this.labelSelector = labelSelector;
    this.listener = listener;
    this.resourceVersion = '';
    this.source = null;
    this.generation = 0;
    this.backoff = 1000;
    this.retryTimer = null;
    this.paused = false;
    this.progressed = false; // an event or bookmark since the last list: a 410 now is news, not a loop
  }

  start() {
    this.list('listing');
  }

  /** Nothing goes on while paused: a list, a retry or a stream in progress is dropped. */
  pause() {
    this.paused = true;
    this.closeStream();
    this.generation++;
    this.listener.state('paused');
    this.listener.log('info', this.resourceVersion ? `paused at resourceVersion ${this.resourceVersion}` : 'paused');
  }

  resume() {
    this.paused = false;
    if (!this.resourceVersion) {
      this.list('listing');
      return;
    }
    this.listener.log('info', `resuming after resourceVersion ${this.resourceVersion}`);
    this.progressed = true; // a 410 now says the pause outlived the history: list again at once
    this.watch();
  }

  stop() {
    this.closeStream();
    this.generation++;
  }

  async list(state) {
    this.closeStream();
    const generation = ++this.generation;
    this.listener.state(state);
    try {
      const listed = await listTable(this.type, this.namespace, this.labelSelector);
      if (generation !== this.generation) {
        return;
      }
      this.resourceVersion = listed.resourceVersion;
      this.progressed = false;
      this.listener.reset(listed);
      this.listener.log(state === 'relisting' ? 'relist' : 'info',
        `listed ${listed.rows.length} at resourceVersion ${listed.resourceVersion}`);
      this.watch();
    } catch (e) {
      if (generation === this.generation) {
        this.failedOrRetry(e);
      }
    }
  }

  watch() {
    this.closeStream();
    const generation = this.generation;
    const source = new EventSource(watchUrl(this.type, this.namespace, this.labelSelector, this.resourceVersion));
    this.source = source;
    let lost = false;
    source.onopen = () => {
      this.listener.state('live');
      if (lost) {
        this.listener.log('info', `resumed after resourceVersion ${this.resourceVersion}`);
        lost = false;
      }
    };
    source.onerror = () => {
      if (generation !== this.generation || source !== this.source) {
        return;
      }
      if (source.readyState === EventSource.CONNECTING) {
        // the stream ended (the server ends every watch after a while) or the network failed: EventSource comes
        // back by itself, with Last-Event-ID
        if (!lost) {
          this.listener.log('info', `stream ended: resuming after resourceVersion ${this.resourceVersion}`);
        }
        lost = true;
        this.listener.state('reconnecting');
      } else {
        // EventSource gave up: an answer that was no event stream (401, 403, 404, 429...). Ask why with a list.
        this.closeStream();
        this.explainRefusal(generation);
      }
    };
    for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
      source.addEventListener(type, e => this.onObjectEvent(type, e));
    }
    source.addEventListener('BOOKMARK', e => {
      const object = JSON.parse(e.data);
      this.resourceVersion = e.lastEventId || object.metadata?.resourceVersion || this.resourceVersion;
      this.madeProgress();
    });
    source.addEventListener('ERROR', e => this.onErrorEvent(e));
  }

  onObjectEvent(type, e) {
    const table = JSON.parse(e.data);
    const row = (table.rows || [])[0];
    if (!row || !row.object) {
      return;
    }
    this.resourceVersion = e.lastEventId || row.object.metadata?.resourceVersion || this.resourceVersion;
    this.madeProgress();
    this.listener.event(type, { cells: row.cells || [], object: row.object }, this.resourceVersion);
  }

  madeProgress() {
    this.progressed = true;
    this.backoff = 1000;
  }

  onErrorEvent(e) {
    const status = JSON.parse(e.data);
    this.closeStream();
    if (status.code === 410 && this.progressed) {
      this.listener.log('relist', `resourceVersion ${this.resourceVersion} is older than the server's history `
        + `(410 ${status.reason}): listing again`);
      this.list('relisting');
      return;
    }
    // a 410 straight after a list (history shorter than a list takes) is tried again later, not at once
    this.failedOrRetry(new ApiError(status.code || 0, status.reason || 'Error', status.message || 'watch failed'));
  }

  async explainRefusal(generation) {
    try {
      const response = await fetch(`${collectionPath(this.type, this.namespace)}?limit=1`,
        { credentials: 'same-origin', cache: 'no-store' });
      if (generation !== this.generation) {
        return;
      }
      if (!response.ok) {
        let status = {};
        try {
          status = await response.json();
        } catch (e) {
          // no Status
        }
        this.failedOrRetry(new ApiError(response.status, status.reason || '', status.message || response.statusText));
        return;
      }
      this.failedOrRetry(new ApiError(0, 'StreamRefused', 'the watch was refused; the list was not'));
    } catch (e) {
      if (generation === this.generation) {
        this.failedOrRetry(new ApiError(0, 'Unreachable', 'the gateway could not be reached'));
      }
    }
  }

  /**
   * A refusal of the request itself (4xx but timeouts, conflicts, expiry and throttling) needs the user; anything else
   * is tried again from a new list, later and later.
   */
  failedOrRetry(error) {
    this.closeStream();
    if (this.paused) {
      return;
    }
    if (error.code >= 400 && error.code < 500 && ![408, 409, 410, 429].includes(error.code)) {
      this.listener.state('failed');
      this.listener.failed(error);
      return;
    }
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.listener.state('reconnecting');
    this.listener.log(error.code === 410 ? 'relist' : 'error',
      `${error.message} (${error.code} ${error.reason}); listing again in ${Math.round(delay / 1000)} s`);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      if (generation === this.generation) {
        this.list('relisting');
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
