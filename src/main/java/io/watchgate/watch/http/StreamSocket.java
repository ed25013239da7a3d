package io.watchgate.watch.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.api.InFlightLimit;
import io.watchgate.authz.WatchGrants;
import io.watchgate.fairness.TokenBucket;
import io.watchgate.fairness.UserLimits;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RequestEnd;
import io.watchgate.status.ApiException;
import io.watchgate.watch.WatchGrant;
import io.watchgate.watch.fanout.WatchHubs;
import io.watchgate.watch.stream.StreamConfig;
import io.watchgate.watch.stream.StreamedWatch;
import io.watchgate.watch.stream.StreamMembers;
import io.watchgate.watch.stream.WatchStream;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A stream over a WebSocket, whose client adds and stops watches while connected, one JSON message each:
 * {@code {"op":"watch","id":"w1","url":"/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx"}} and
 * {@code {"op":"stop","id":"w1"}}. A watch added is read and authorized as the single watch its URL stands for, and
 * admitted among the server's watches; its events are tagged with its id. What cannot be done is answered with an
 * ERROR tagged with the id (or, for a message with none, of the stream), and the stream goes on. A watch may cost a
 * snapshot, so watch messages have a rate. Runs on the socket's event loop, the stream's.
 */
final class StreamSocket {

    /** A message is a few hundred bytes: a longer one is refused unread. */
    static final int MAX_MESSAGE_BYTES = 16 * 1024;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private final RoutingContext context;
    private final WatchStream stream;
    private final StreamMembers members;
    private final WatchSpecs specs;
    private final WatchGrants grants;
    private final WatchHubs hubs;
    private final ObjectMapper mapper;
    private final int maxWatches;
    /** Watch messages, each of which may cost a snapshot: a client that sends them on and on waits for its turn. */
    private final TokenBucket watchMessages;
    private final double watchMessagesPerSecond;
    private final Refusals refusals;
    private final UserLimits users;
    /** The watches added by message that hold one of their user's watch places, given back when they stop. */
    private final Set<String> holdingPlaces = new HashSet<>();

    StreamSocket(RoutingContext context, WatchStream stream, WatchSpecs specs, WatchGrants grants, WatchHubs hubs,
            ObjectMapper mapper, StreamConfig config, Refusals refusals, UserLimits users) {
        this.refusals = refusals;
        this.users = users;
        RequestEnd.onEnd(context, completed -> {
            holdingPlaces.forEach(tag -> users.giveBackWatch(context));
            holdingPlaces.clear();
        });
        this.context = context;
        this.stream = stream;
        this.members = new StreamMembers(stream);
        this.specs = specs;
        this.grants = grants;
        this.hubs = hubs;
        this.mapper = mapper;
        this.maxWatches = config.maxWatches();
        this.watchMessagesPerSecond = config.watchMessagesPerSecond();
        this.watchMessages = new TokenBucket(watchMessagesPerSecond, maxWatches, System.nanoTime());
    }

    void onMessage(String text) {
        if (stream.hasEnded()) {
            return;
        }
        String id = null;
        String tag = null; // what an ERROR is tagged with: a watch that could not start, or nothing (the stream's)
        try {
            if (text.length() > MAX_MESSAGE_BYTES) {
                throw ApiException.badRequest("a message is at most " + MAX_MESSAGE_BYTES + " bytes; this one has "
                        + text.length());
            }
            JsonNode message = read(text);
            id = text(message, "id");
            if (id == null || !ID.matcher(id).matches()) {
                String given = id;
                id = null;
                throw ApiException.badRequest("id: Invalid value: " + (given == null ? "none"
                        : "\"" + StreamRequests.shown(given) + "\"")
                        + ": each message names its watch with an id of 1 to 64 letters, digits, '.', '_', ':' or '-'");
            }
            String op = text(message, "op");
            if ("watch".equals(op)) {
                tag = members.has(id) ? null : id; // not the running watch of that id: it goes on
                watch(id, text(message, "url"));
            } else if ("stop".equals(op)) {
                if (!members.stop(id)) {
                    throw new ApiException(404, "NotFound", "no watch \"" + id + "\" in this stream");
                }
                if (holdingPlaces.remove(id)) {
                    users.giveBackWatch(context);
                }
            } else {
                throw ApiException.badRequest("op: Unsupported value: " + (op == null ? "none"
                        : "\"" + StreamRequests.shown(op) + "\"")
                        + ": supported values: \"watch\", \"stop\"");
            }
        } catch (ApiException e) {
            members.refuse(tag, e);
        }
    }

    private void watch(String id, String url) {
        if (members.has(id)) {
            throw ApiException.badRequest("the stream has a watch \"" + id + "\" already: stop it first");
        }
        if (url == null) {
            throw ApiException.badRequest("url: Required value: the collection to watch, as /api/v1/configmaps");
        }
        long wait = watchMessages.take(System.nanoTime());
        if (wait > 0) {
            refusals.count(Refusals.Reason.STREAM_MESSAGES);
            throw new ApiException(429, "TooManyRequests", "a stream's client may send " + maxWatches
                    + " watch messages at once, then " + BigDecimal.valueOf(watchMessagesPerSecond).stripTrailingZeros()
                    .toPlainString() + " a second: try again in " + wait
                    + " s", ApiException.Details.NONE, (int) wait, null);
        }
        if (members.count() >= maxWatches) {
            refusals.count(Refusals.Reason.STREAM_WATCHES);
            throw ApiException.badRequest("a stream carries at most " + maxWatches + " watches");
        }
        StreamRequests.Asked asked = StreamRequests.parse(url, specs, null);
        WatchGrant grant;
        try {
            grant = grants.authorize(context, asked.info());
        } catch (ApiException forbidden) {
            refusals.count(Refusals.Reason.FORBIDDEN);
            throw forbidden;
        }
        StreamedWatch watch = new StreamedWatch(id, url, asked.spec().grantedBy(grant));
        if (!users.takeWatch(context)) {
            throw InFlightLimit.tooManyRequests(1); // the user holds its share of watches already
        }
        try {
            hubs.admit(1);
        } catch (RuntimeException e) {
            users.giveBackWatch(context);
            throw e;
        }
        try {
            members.add(watch);
        } catch (RuntimeException e) {
            hubs.release(1);
            users.giveBackWatch(context);
            throw e;
        }
        holdingPlaces.add(id);
    }

    private JsonNode read(String text) {
        try {
            JsonNode message = mapper.readTree(text);
            if (message == null || !message.isObject()) {
                throw ApiException.badRequest("a message is a JSON object: {\"op\":\"watch\",\"id\":\"w1\",\"url\":"
                        + "\"/api/v1/configmaps\"} or {\"op\":\"stop\",\"id\":\"w1\"}");
            }
            return message;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("a message is a JSON object, and this one is not JSON: "
                    + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode message, String field) {
        JsonNode value = message.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(field + ": Invalid value: must be a string");
        }
        return value.asText();
    }
}
