// What the page shows, as its URL keeps it: the view the controls choose (resource, namespace, labelSelector) and
// the views pinned beside it (each a pin parameter, "resource:namespace:labelSelector"), so that a board of tables
// can be shared and Back returns to the last one.

/** A namespace's name is a DNS label: anything else in a URL is refused, not sent on as a path. */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Tables on one page at most, the chosen one included: each is a watch of the page's one stream. */
export const MAX_TABLES = 20;

/** What a view's rows are: {type, namespace, labelSelector}; a cluster-scoped type has no namespace. */
export function view(type, namespace, labelSelector) {
  return { type, namespace: type.namespaced ? namespace : '', labelSelector };
}

/** The same key for the same rows: one watch serves every table that shows them. */
export function keyOf(v) {
  return `${v.type.id}:${v.namespace}:${v.labelSelector}`;
}

/** What a view shows, in words: "configmaps in shop matching app=web". */
export function describe(v) {
  const scope = !v.type.namespaced ? '(cluster-scoped)' : v.namespace ? `in ${v.namespace}` : 'in all namespaces';
  return `${v.type.plural} ${scope}${v.labelSelector ? ` matching ${v.labelSelector}` : ''}`;
}

/** Why the view cannot be shown, or '' when it can. */
export function problemOf(v) {
  if (v.namespace && !NAMESPACE.test(v.namespace)) {
    return `"${v.namespace}" is no namespace's name (lower-case letters, digits and '-', 63 at most)`;
  }
  return '';
}

/** A pin parameter's value: "resource:namespace:labelSelector" (neither a resource nor a namespace has a colon). */
export function pinOf(v) {
  return `${v.type.id}:${v.namespace}:${v.labelSelector}`;
}

/**
 * The views pinned in the URL's pin parameters, the first MAX_TABLES - 1 of them that name a served type and a
 * namespace; problems lists what was left out, and why.
 */
export function pinsOf(parameters, types) {
  const pins = [];
  const problems = [];
  const keys = new Set();
  for (const pin of parameters.getAll('pin')) {
    const [id, namespace = '', ...selector] = pin.split(':');
    const type = types.find(t => t.id === id);
    const pinned = type && view(type, namespace.trim(), selector.join(':').trim());
    if (pinned && !problemOf(pinned) && keys.has(keyOf(pinned))) {
      continue; // the same table twice
    }
    const problem = !type ? `the gateway serves no resource "${id}" that can be listed and watched`
      : problemOf(pinned) || (pins.length >= MAX_TABLES - 1 ? `more than ${MAX_TABLES} tables` : '');
    if (problem) {
      problems.push(`pinned table "${pin}" not shown: ${problem}`);
    } else {
      keys.add(keyOf(pinned));
      pins.push(pinned);
    }
  }
  return { pins, problems };
}

/**
 * The page's URL for the chosen view's parameters (resource, namespace, labelSelector: as chosen, valid or not) and
 * pins. A colon needs no escape in a query, and a pin reads better without.
 */
export function urlOf(chosen, pins) {
  const parameters = new URLSearchParams();
  for (const name of ['resource', 'namespace', 'labelSelector']) {
    if (chosen[name]) parameters.set(name, chosen[name]);
  }
  for (const pin of pins) {
    parameters.append('pin', pinOf(pin));
  }
  return `${location.pathname}?${parameters.toString().replace(/%3A/gi, ':')}`;
}

/** The chosen view's parameters as a URL names them. */
export function parametersOf(v) {
  return { resource: v.type.id, namespace: v.namespace, labelSelector: v.labelSelector };
}
