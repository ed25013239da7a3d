// A table on the page with what goes around it: its caption, its count of rows, the words for an empty table, and
// the problem that keeps it from showing anything. The stream feeds it (reset, event, failed).

import { describe } from './views.js';
import { LiveTable } from './table.js';

export class TablePane {
  /**
   * @param parts {table, caption, count, empty, problem}: the elements it fills
   * @param onOpen called with the pane and a row's object when the user opens it
   */
  constructor(parts, onOpen) {
    this.parts = parts;
    this.view = null;
    this.table = new LiveTable(parts.table, object => onOpen(this, object));
  }

  /** Shows view from now on: empty until it is listed. */
  showing(v) {
    this.view = v;
    this.parts.caption.textContent = describe(v);
    this.clear('');
  }

  /** Shows nothing, with a problem to say, if any. */
  clear(problem) {
    this.table.reset([], [], false);
    this.showCount();
    this.showProblem(problem);
  }

  reset(listed) {
    this.table.reset(listed.columns, listed.rows, this.view.type.namespaced && !this.view.namespace);
    this.showCount();
    this.showProblem('');
  }

  event(type, row) {
    if (type === 'DELETED') {
      this.table.remove(row.object);
    } else {
      this.table.upsert(row, type === 'ADDED' ? 'added' : 'modified');
    }
    this.showCount();
  }

  /** The rows shown stay, with why they are not live for now. */
  waiting(text) {
    this.showProblem(text);
  }

  failed(error) {
    this.clear(`${error.message} (${error.code} ${error.reason})`);
  }

  showCount() {
    this.parts.count.textContent = `(${this.table.size})`;
    this.parts.empty.hidden = this.table.size > 0 || !this.parts.problem.hidden;
  }

  showProblem(text) {
    this.parts.problem.textContent = text;
    this.parts.problem.hidden = !text;
    this.parts.empty.hidden = this.table.size > 0 || Boolean(text);
  }
}
