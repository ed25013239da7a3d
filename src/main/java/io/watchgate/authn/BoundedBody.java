package io.watchgate.authn;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body taken whole up to a number of bytes, and refused past it without reading the rest (the JDK's
 * HttpClient has no such handler before Java 22's {@code BodyHandlers.limiting}).
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final int maxBytes;
    private final String what;
    private final ByteArrayOutputStream content = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int maxBytes, String what) {
        this.maxBytes = maxBytes;
        this.what = what;
    }

    static HttpResponse.BodyHandler<byte[]> handler(int maxBytes, String what) {
        return info -> new BoundedBody(maxBytes, what);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            if (content.size() + buffer.remaining() > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new IOException(what + " answered more than " + maxBytes + " bytes"));
                return;
            }
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            content.writeBytes(bytes);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(content.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }
}
