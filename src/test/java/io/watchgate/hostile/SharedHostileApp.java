package io.watchgate.hostile;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link HostileApp} of the default configuration for every test class that extends with this, started once
 * in a run and stopped at its end: each start costs seconds, and what one class does to the app is the next one's
 * weather, as it would be a real server's. After each class the app's log since that class began is read for harm
 * (a blocked event loop, running out of memory), and that class fails for it; an app that died is started anew for
 * the next class. A class gets it as a parameter of its {@code @BeforeAll} method.
 */
public final class SharedHostileApp implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            SharedHostileApp.class);

    /** The running app, closed with the run's root context. */
    private static final class Running implements ExtensionContext.Store.CloseableResource {
        private final HostileApp app;

        Running(HostileApp app) {
            this.app = app;
        }

        @Override
        public void close() throws InterruptedException {
            app.kill();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ExtensionContext.Store shared = context.getRoot().getStore(NAMESPACE);
        Running running = shared.get(Running.class, Running.class);
        if (running == null || !running.app.alive()) {
            Path work = Files.createTempDirectory("watchgate-hostile-");
            running = new Running(HostileApp.start(work));
            shared.put(Running.class, running);
        }
        context.getStore(NAMESPACE).put(Mark.class, new Mark(running.app, running.app.markLog()));
    }

    /** Where the app's log stood when a class began. */
    private record Mark(HostileApp app, long logBytes) {
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        Mark mark = context.getStore(NAMESPACE).get(Mark.class, Mark.class);
        mark.app().assertUnharmedSince(mark.logBytes());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == HostileApp.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(Mark.class, Mark.class).app();
    }
}
