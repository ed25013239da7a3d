// The gateway's API as the live view uses it: discovery, Table lists, stream URLs, objects and the login exchange.
// Same-origin requests only: the session cookie goes with them, and no token is ever kept by the page.

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json;q=0.9';
const DISCOVERY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json;q=0.9';
const PAGE_SIZE = 500;

/**
 * An answer other than 2xx, with the Kubernetes Status it carried (or what there was of it), and how long the server
 * asked to be left alone before the next try (its Retry-After, or its Status's details.retryAfterSeconds), if it did.
 */
export class ApiError extends Error {
  constructor(code, reason, message, retryAfterSeconds = 0) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.retryAfterMs = Math.max(0, Number(retryAfterSeconds) || 0) * 1000;
  }
}

async function request(url, options = {}) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...options });
  } catch (e) {
    throw new ApiError(0, 'Unreachable', `the gateway could not be reached (${e.message})`);
  }
  if (!response.ok) {
    let status = {};
    try {
      status = await response.json();
    } catch (e) {
      // not a Status: the code says enough
    }
    throw new ApiError(response.status, status.reason || response.statusText,
      status.message || 'the answer held no Status',
      Number(response.headers.get('Retry-After')) || status.details?.retryAfterSeconds);
  }
  return response;
}

async function getJson(url, accept = 'application/json') {
  return (await request(url, { headers: { Accept: accept } })).json();
}

/**
 * Every type that can be listed and watched, from aggregated discovery, in its group's preferred version:
 * {id, group, version, plural, kind, namespaced}. The id is what the page's URL names it by (kubectl's
 * resource.group form: "configmaps", "widgets.example.com").
 */
export async function discoverTypes() {
  const [core, groups] = await Promise.all([getJson('/api', DISCOVERY), getJson('/apis', DISCOVERY)]);
  const types = [];
  for (const group of [...(core.items || []), ...(groups.items || [])]) {
    const preferred = (group.versions || [])[0];
    if (!preferred) {
      continue;
    }
    const groupName = group.metadata?.name || '';
    for (const resource of preferred.resources || []) {
      const verbs = resource.verbs || [];
      if (!verbs.includes('list') || !verbs.includes('watch')) {
        continue;
      }
      types.push({
        id: groupName ? `${resource.resource}.${groupName}` : resource.resource,
        group: groupName,
        version: preferred.version,
        plural: resource.resource,
        kind: resource.responseKind?.kind || resource.resource,
        namespaced: resource.scope === 'Namespaced',
      });
    }
  }
  return types.sort((a, b) => a.id.localeCompare(b.id));
}

/** The collection's path: all namespaces when namespace is empty. */
export function collectionPath(type, namespace) {
  const root = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const scope = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${scope}/${type.plural}`;
}

function query(parameters) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') {
      search.set(name, value);
    }
  }
  return search.toString();
}

/**
 * The collection as Table pages, read whole: {columns, rows: [{cells, object}], resourceVersion}. Every page reads
 * the first page's snapshot, so the rows are one consistent state and resourceVersion is where a watch takes over.
 */
export async function listTable(type, namespace, labelSelector) {
  const path = collectionPath(type, namespace);
  let columns = [];
  const rows = [];
  let resourceVersion = '';
  let next = '';
  do {
    const table = await getJson(`${path}?${query({ labelSelector, limit: PAGE_SIZE, continue: next,
      includeObject: 'Object' })}`, TABLE);
    if (table.kind !== 'Table') {
      throw new ApiError(406, 'NotATable', `${type.id} was not listed as a Table`);
    }
    if (!next) {
      columns = table.columnDefinitions || [];
      resourceVersion = table.metadata?.resourceVersion || '';
    }
    for (const row of table.rows || []) {
      rows.push({ cells: row.cells || [], object: row.object });
    }
    next = table.metadata?.continue || '';
  } while (next);
  return { columns, rows, resourceVersion };
}

/**
 * The collection's watch from resourceVersion on, as one of a stream's: its events carry one-row Tables with their
 * objects.
 */
export function watchUrl(type, namespace, labelSelector, resourceVersion) {
  return `${collectionPath(type, namespace)}?${query({ resourceVersion, labelSelector, as: 'Table',
    includeObject: 'Object' })}`;
}

/**
 * One event stream of many watches, in one revision order: each event's data names its watch by the URL given for it
 * here ({"watch", "type", "object"}); bookmarks and errors of the whole stream name none.
 */
export function streamUrl(watchUrls) {
  return `/streams?${watchUrls.map(url => `watch=${encodeURIComponent(url)}`).join('&')}`;
}

/** Why the server refuses a stream's URL (an EventSource does not show the Status); null if it serves it now. */
export async function streamRefusal(url) {
  const abort = new AbortController();
  try {
    await request(url, { headers: { Accept: 'text/event-stream' }, signal: abort.signal });
    abort.abort(); // served this time: the stream is not wanted here
    return null;
  } catch (e) {
    return e; // request() throws ApiErrors only
  }
}

/** One object as text, read from the server again: YAML or JSON. */
export async function objectText(type, namespace, name, format) {
  const url = `${collectionPath(type, namespace)}/${encodeURIComponent(name)}`;
  const accept = format === 'yaml' ? 'application/yaml' : 'application/json';
  const response = await request(url, { headers: { Accept: accept } });
  const text = await response.text();
  return format === 'yaml' ? text : indented(text);
}

/**
 * Compact JSON laid out two spaces a level, its text otherwise untouched: parsing it would round numbers that the
 * server keeps exactly (integers past 2^53, 1.50).
 */
export function indented(json) {
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === '\\') {
        out += json[++i];
      } else if (c === '"') {
        inString = false;
      }
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      if (json[i + 1] === close) {
        out += c + close;
        i++;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') {
      out += c + newline();
    } else if (c === ':') {
      out += ': ';
    } else if (c.trim()) {
      out += c;
    }
  }
  return out;
}

/** The namespaces' names, for the picker; empty where the user may not list them. */
export async function namespaceNames() {
  try {
    const list = await getJson(`/api/v1/namespaces?${query({ limit: PAGE_SIZE })}`);
    return (list.items || []).map(item => item.metadata.name);
  } catch (e) {
    return [];
  }
}

/**
 * The session this browser holds, or null without one: {user, secondsLeft}, counted on the server's clock (the
 * answer's Date), which the browser's may not agree with.
 */
export async function currentSession() {
  try {
    return await sessionOf(await request('/watchgate/session', { headers: { Accept: 'application/json' } }));
  } catch (e) {
    if (e.code === 404 || e.code === 401) {
      return null;
    }
    throw e;
  }
}

/** Trades a bearer token for a session cookie; the token goes no further than this request. */
export async function logIn(token) {
  return sessionOf(await request('/watchgate/session', {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  }));
}

/** A new cookie with a later end, for the session the cookie stands for. */
export async function renewSession() {
  return sessionOf(await request('/watchgate/session', { method: 'POST', headers: { Accept: 'application/json' } }));
}

export async function logOut() {
  await request('/watchgate/session', { method: 'DELETE' });
}

async function sessionOf(response) {
  const body = await response.json();
  const now = Date.parse(response.headers.get('Date') || '') || Date.now();
  return {
    user: body.status.userInfo.username,
    secondsLeft: Math.max(0, (Date.parse(body.status.expirationTimestamp) - now) / 1000),
  };
}
