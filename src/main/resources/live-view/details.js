// One object's details, read-only: read from the server again as YAML or JSON when opened, and again (once for a
// burst) when the stream says it changed.

import { objectText } from './api.js';

export class Details {
  /**
   * @param parts {section, title, text, yaml, json}: the elements it fills
   * @param onClose called with the closed object's pane, namespace and name, to give the focus back to its row
   */
  constructor(parts, onClose) {
    this.parts = parts;
    this.onClose = onClose;
    this.selected = null; // {pane, view, namespace, name}
    this.format = 'yaml';
    this.request = 0;
    this.refresh = null;
    parts.yaml.addEventListener('click', () => this.showAs('yaml'));
    parts.json.addEventListener('click', () => this.showAs('json'));
  }

  /** Opens object, a row of pane's table. */
  async open(pane, object) {
    this.selected = { pane, view: pane.view, namespace: object.metadata?.namespace || '', name: object.metadata?.name };
    this.parts.title.textContent = '';
    this.parts.text.textContent = '';
    this.parts.section.hidden = false;
    if (await this.show()) {
      this.parts.text.focus();
    }
  }

  showAs(format) {
    this.format = format;
    this.show();
  }

  /** Reads the selected object again; true when this read is still the newest once it is shown. */
  async show() {
    if (!this.selected) {
      return false;
    }
    const request = ++this.request;
    const { view, namespace, name } = this.selected;
    const title = `${view.type.kind} ${namespace ? `${namespace}/` : ''}${name}`;
    if (!this.parts.title.textContent.startsWith(title)) {
      this.parts.title.textContent = title;
    }
    this.parts.yaml.setAttribute('aria-pressed', String(this.format === 'yaml'));
    this.parts.json.setAttribute('aria-pressed', String(this.format === 'json'));
    let text;
    let gone = false;
    try {
      text = await objectText(view.type, namespace, name, this.format);
    } catch (e) {
      gone = e.code === 404;
      text = e.message;
    }
    if (request !== this.request) {
      return false; // a newer read (another object, format or version) is on its way
    }
    this.parts.title.textContent = gone ? `${title} (deleted)` : title;
    if (!gone || !this.parts.text.textContent) {
      this.parts.text.textContent = text; // a deleted object's last state stays, to be read
    }
    return true;
  }

  /** An object of view's type changed: if it is the open one, read it again, once for a burst of changes. */
  follow(view, object) {
    const selected = this.selected;
    if (selected && selected.view.type.id === view.type.id && selected.name === object.metadata?.name
      && selected.namespace === (object.metadata?.namespace || '')) {
      clearTimeout(this.refresh);
      this.refresh = setTimeout(() => this.show(), 250);
    }
  }

  close(refocus = true) {
    const had = this.selected;
    this.selected = null;
    this.request++;
    clearTimeout(this.refresh);
    this.parts.section.hidden = true;
    this.parts.text.textContent = '';
    if (had && refocus) {
      this.onClose(had.pane, had.namespace, had.name);
    }
  }
}
