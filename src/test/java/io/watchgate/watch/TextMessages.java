package io.watchgate.watch;

import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;

/** A WebSocket listener of the JDK's client that collects whole text messages into a queue. */
public final class TextMessages implements WebSocket.Listener {

    private final BlockingQueue<String> messages;
    private final StringBuilder partial = new StringBuilder();

    public TextMessages(BlockingQueue<String> messages) {
        this.messages = messages;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            messages.add(partial.toString());
            partial.setLength(0);
        }
        socket.request(1);
        return null;
    }
}
