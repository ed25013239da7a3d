// One collection a page follows (a type, in a namespace or all, with a label selector), and where it stands.

import { describe } from './views.js';

/**
 * One collection followed, and the tables that show it: each has reset(listed), event(type, row), failed(error) and
 * waiting(why) (its rows stay, not live for now).
 */
export class Collection {
  constructor(v) {
    this.view = v;
    this.label = describe(v);
    this.tables = new Set();
    this.resourceVersion = 0; // listed and seen through this revision
    this.shownThrough = 0; // listed, or shown an event of, this revision: a frame sent again is not shown twice
    this.needsList = true; // a table shows it that has not had its rows yet: out of the stream until listed
    this.failed = false; // refused in a way only the user can mend (403, a bad selector): out of the stream
  }

  get watched() {
    return !this.needsList && !this.failed;
  }
}
