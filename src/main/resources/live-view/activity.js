// What happened, for people: the latest events and notices as a log, and a chart of events per second.

const LOG_ENTRIES = 200;
const SECONDS_CHARTED = 60;
const SVG = 'http://www.w3.org/2000/svg';

function timeElement(date) {
  const time = document.createElement('time');
  time.dateTime = date.toISOString();
  time.textContent = date.toTimeString().slice(0, 8) + '.' + String(date.getMilliseconds()).padStart(3, '0');
  return time;
}

function span(className, text) {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}

/** The newest entries first, LOG_ENTRIES at most. */
export class EventLog {
  constructor(list) {
    this.list = list;
  }

  event(type, object, resourceVersion) {
    const name = object.metadata?.namespace ? `${object.metadata.namespace}/${object.metadata.name}`
      : object.metadata?.name;
    const li = this.entry('event');
    li.dataset.type = type;
    li.dataset.name = name;
    li.dataset.resourceVersion = resourceVersion;
    li.dataset.kind = object.kind || '';
    li.append(span('type', type), ' ', span('kind', object.kind || ''), ' ', span('name', name), ' ',
      span('version', `rv ${resourceVersion}`));
  }

  clear() {
    this.list.replaceChildren();
  }

  /** A notice: kind 'info', 'relist' or 'error'. */
  notice(kind, text) {
    const li = this.entry(kind);
    li.append(span('type', kind === 'error' ? 'ERROR' : kind === 'relist' ? 'RELIST' : 'INFO'), ' ',
      span('text', text));
  }

  entry(kind) {
    const li = document.createElement('li');
    li.className = kind;
    li.append(timeElement(new Date()), ' ');
    this.list.prepend(li);
    while (this.list.children.length > LOG_ENTRIES) {
      this.list.lastElementChild.remove();
    }
    return li;
  }
}

/** Bars of the events of each of the last SECONDS_CHARTED seconds, the newest on the right. */
export class RateChart {
  constructor(svg, now) {
    this.svg = svg;
    this.now = now;
    this.counts = new Array(SECONDS_CHARTED).fill(0);
    this.current = 0;
    setInterval(() => this.tick(), 1000);
    this.draw();
  }

  count() {
    this.current++;
  }

  tick() {
    this.counts.shift();
    this.counts.push(this.current);
    this.current = 0;
    this.draw();
  }

  draw() {
    const [width, height] = [120, 40];
    const barWidth = width / SECONDS_CHARTED;
    const most = Math.max(...this.counts);
    const top = Math.max(1, most);
    const bars = this.counts.map((count, i) => {
      const rect = document.createElementNS(SVG, 'rect');
      const barHeight = count === 0 ? 0 : Math.max(1, (count / top) * height);
      rect.setAttribute('x', String(i * barWidth));
      rect.setAttribute('y', String(height - barHeight));
      rect.setAttribute('width', String(barWidth * 0.8));
      rect.setAttribute('height', String(barHeight));
      return rect;
    });
    this.svg.replaceChildren(...bars);
    this.now.textContent = `${this.counts[this.counts.length - 1]}/s now, ${most}/s at most in the last minute`;
  }
}
