// What the gateway's refusals mean to a page: for now (try again, later and later) or for the user to mend.

import { ApiError } from './api.js';

const MAX_BACKOFF_MS = 30000;

/**
 * Waits that grow, from a second to half a minute, until a success starts them over; never shorter than the server
 * asked for (up to the half minute).
 */
export class Backoff {
  constructor() {
    this.delay = 1000;
  }

  next(error) {
    const delay = Math.max(this.delay, Math.min(error?.retryAfterMs || 0, MAX_BACKOFF_MS));
    this.delay = Math.min(this.delay * 2, MAX_BACKOFF_MS);
    return delay;
  }

  reset() {
    this.delay = 1000;
  }
}

/** What a Status-carrying event says: a stream's {"type", "object": Status}, or a Status alone. */
export function errorOf(data) {
  const status = data.kind === 'Status' ? data : data.object || {};
  return new ApiError(status.code || 0, status.reason || 'Error', status.message || 'watch failed',
    status.details?.retryAfterSeconds);
}

/** A refusal of the request itself (4xx but timeouts, conflicts, expiry and throttling) needs the user. */
export function needsTheUser(error) {
  return error.code >= 400 && error.code < 500 && ![408, 409, 410, 429].includes(error.code);
}
