// The live table: one row per object, sorted by namespace and name, updated in place as events come, with the type's
// printer columns from the Table API between the columns every object has. Each name is a button that opens the
// object. Keyboard: arrows, Home and End move between the rows' buttons (one tab stop for the whole table).

const SERVER_COLUMNS_SHOWN_APART = new Set(['Name', 'Namespace', 'Age']);

/** An age as kubectl prints it: 45s, 3m20s, 5h, 3d4h, 200d, 2y. */
export function humanAge(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (s < 120) return `${s}s`;
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (h < 3) return `${m}m`;
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (d < 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

/** Sorts by namespace, then name: no character of either sorts below the separator. */
function keyOf(namespace, name) {
  return `${namespace || ''}\u0000${name || ''}`;
}

function keyOfObject(object) {
  return keyOf(object.metadata?.namespace, object.metadata?.name);
}

function labelsOf(object) {
  return Object.entries(object.metadata?.labels || {}).map(([k, v]) => `${k}=${v}`).join(', ');
}

export class LiveTable {
  /** @param onOpen called with a row's object when the user opens it */
  constructor(table, onOpen) {
    this.table = table;
    this.head = table.tHead.rows[0];
    this.body = table.tBodies[0];
    this.onOpen = onOpen;
    this.rows = new Map(); // key -> {tr, object}
    this.keys = []; // sorted
    this.serverColumns = [];
    this.showNamespace = false;
    this.body.addEventListener('click', e => this.open(e.target.closest('tr')));
    this.body.addEventListener('keydown', e => this.onKey(e));
    this.tabStop = null; // the key of the row whose button takes the table's one tab stop
    this.ticker = setInterval(() => this.tickAges(), 1000);
  }

  /** The table is off the page for good: its clock stops. */
  dispose() {
    clearInterval(this.ticker);
  }

  /** A new type or state: its columns, and all its rows. */
  reset(columns, rows, showNamespace) {
    this.showNamespace = showNamespace;
    this.serverColumns = columns
      .map((column, index) => ({ ...column, index }))
      .filter(column => (column.priority || 0) === 0 && !SERVER_COLUMNS_SHOWN_APART.has(column.name));
    const headings = ['Name', ...(showNamespace ? ['Namespace'] : []), ...this.serverColumns.map(c => c.name),
      'Labels', 'Age', 'Resource version'];
    this.head.replaceChildren(...headings.map(text => {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = text;
      return th;
    }));
    const hadFocus = this.body.contains(document.activeElement);
    const previous = this.tabStop;
    this.tabStop = null;
    this.rows.clear();
    this.keys = [];
    this.body.replaceChildren();
    for (const row of rows) {
      this.upsert(row, null);
    }
    // the row that had the tab stop keeps it, if it is still there; else the first
    this.setTabStop(this.rows.has(previous) ? previous : this.keys[0], hadFocus);
  }

  /** Adds or replaces the row of row.object; change ('added', 'modified' or null) marks it for a moment. */
  upsert(row, change) {
    const key = keyOfObject(row.object);
    let entry = this.rows.get(key);
    if (!entry) {
      const tr = document.createElement('tr');
      entry = { tr, object: row.object };
      this.rows.set(key, entry);
      const at = this.insertionPoint(key);
      this.keys.splice(at, 0, key);
      this.body.insertBefore(tr, this.body.rows[at] || null);
      if (!this.rows.has(this.tabStop)) {
        this.tabStop = key;
      }
    }
    entry.object = row.object;
    const focused = entry.tr.contains(document.activeElement);
    this.fill(entry.tr, row, key === this.tabStop);
    if (focused) {
      entry.tr.querySelector('button').focus();
    }
    if (change) {
      this.mark(entry.tr, change);
    }
  }

  remove(object) {
    const key = keyOfObject(object);
    const entry = this.rows.get(key);
    if (!entry) {
      return;
    }
    const at = this.insertionPoint(key);
    const hadFocus = entry.tr.contains(document.activeElement);
    this.rows.delete(key);
    this.keys.splice(at, 1);
    entry.tr.remove();
    if (key === this.tabStop || hadFocus) {
      // the tab stop (and the focus, if it was there) goes to the row that took its place
      this.setTabStop(this.keys[Math.min(at, this.keys.length - 1)], hadFocus);
    }
  }

  setTabStop(key, focus) {
    this.tabStop = key ?? null;
    for (const [k, entry] of this.rows) {
      const button = entry.tr.querySelector('button');
      button.tabIndex = k === this.tabStop ? 0 : -1;
      if (k === this.tabStop && focus) {
        button.focus();
      }
    }
  }

  get size() {
    return this.rows.size;
  }

  insertionPoint(key) {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.keys[mid] < key) low = mid + 1; else high = mid;
    }
    return low;
  }

  fill(tr, row, tabStop) {
    const object = row.object;
    const metadata = object.metadata || {};
    const name = document.createElement('th');
    name.scope = 'row';
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'open';
    open.tabIndex = tabStop ? 0 : -1;
    open.textContent = metadata.name || '';
    open.setAttribute('aria-label', `${metadata.name || ''}: show the object`);
    name.append(open);
    const texts = [...(this.showNamespace ? [metadata.namespace || ''] : []),
      ...this.serverColumns.map(column => cellText(row.cells[column.index]))];
    const cells = texts.map(text => {
      const cell = document.createElement('td');
      cell.textContent = text;
      return cell;
    });
    const labels = document.createElement('td');
    labels.className = 'labels';
    labels.textContent = labelsOf(object);
    const age = document.createElement('td');
    age.className = 'age';
    const created = Date.parse(metadata.creationTimestamp || '');
    age.dataset.created = Number.isNaN(created) ? '' : String(created);
    age.textContent = Number.isNaN(created) ? '' : humanAge((Date.now() - created) / 1000);
    const version = document.createElement('td');
    version.textContent = metadata.resourceVersion || '';
    tr.replaceChildren(name, ...cells, labels, age, version);
    tr.dataset.name = metadata.name || '';
    tr.dataset.namespace = metadata.namespace || '';
  }

  mark(tr, change) {
    tr.classList.remove('added', 'modified');
    void tr.offsetWidth; // starts the animation again for a row changed twice in a row
    tr.classList.add(change);
    tr.addEventListener('animationend', () => tr.classList.remove(change), { once: true });
  }

  tickAges() {
    const now = Date.now();
    for (const cell of this.body.querySelectorAll('td.age')) {
      if (cell.dataset.created) {
        cell.textContent = humanAge((now - Number(cell.dataset.created)) / 1000);
      }
    }
  }

  open(tr) {
    if (!tr || !this.body.contains(tr)) {
      return;
    }
    const key = keyOf(tr.dataset.namespace, tr.dataset.name);
    this.setTabStop(key, true);
    const entry = this.rows.get(key);
    if (entry) {
      this.onOpen(entry.object);
    }
  }

  /** Gives the focus back to the row of namespace/name, if it is still shown. */
  focusRow(namespace, name) {
    if (this.rows.get(keyOf(namespace, name))) {
      this.setTabStop(keyOf(namespace, name), true);
    }
  }

  onKey(e) {
    const tr = e.target.closest('tr');
    if (!tr) {
      return;
    }
    const rows = this.body.rows;
    const moves = {
      ArrowDown: tr.nextElementSibling, ArrowUp: tr.previousElementSibling,
      Home: rows[0], End: rows[rows.length - 1],
    };
    if (e.key in moves) {
      const to = moves[e.key];
      if (to) {
        this.setTabStop(keyOf(to.dataset.namespace, to.dataset.name), true);
      }
      e.preventDefault();
    }
  }
}

function cellText(cell) {
  if (cell === undefined || cell === null) {
    return '';
  }
  return typeof cell === 'object' ? JSON.stringify(cell) : String(cell);
}
