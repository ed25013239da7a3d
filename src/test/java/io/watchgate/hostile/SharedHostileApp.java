package io.watchgate.hostile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link HostileApp} of the default configuration for every test class that extends with this, started once
 * in a run and stopped at its end: each start costs seconds, and what one class does to the app is the next one's
 * weather, as it would be a real server's. After each class the app's log since that class began is read for harm
 * (a blocked event loop, running out of memory), and that class fails for it; an app that died is started anew for
 * the next class. A class gets it as a parameter of its {@code @BeforeAll} method. Its directory (data and log) is
 * deleted at the end, unless a test failed on it.
 */
public final class SharedHostileApp implements BeforeAllCallback, AfterAllCallback, AfterTestExecutionCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            SharedHostileApp.class);

    /** The running app, closed with the run's root context; its directory stays when a class failed on it. */
    private static final class Running implements ExtensionContext.Store.CloseableResource {
        private final HostileApp app;
        private final Path work;
        private volatile boolean failed;

        Running(HostileApp app, Path work) {
            this.app = app;
            this.work = work;
        }

        @Override
        public void close() throws Exception {
            app.kill();
            if (!failed) {
                try (var files = Files.walk(work)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(file);
                    }
                }
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ExtensionContext.Store shared = context.getRoot().getStore(NAMESPACE);
        Running running = shared.get(Running.class, Running.class);
        if (running == null || !running.app.alive()) {
            Path work = Files.createTempDirectory("watchgate-hostile-");
            running = new Running(HostileApp.start(work), work);
            shared.put(Running.class, running);
        }
        context.getStore(NAMESPACE).put(Mark.class, new Mark(running, running.app.markLog()));
    }

    /** Where the app's log stood when a class began. */
    private record Mark(Running running, long logBytes) {
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        Mark mark = context.getStore(NAMESPACE).get(Mark.class, Mark.class);
        try {
            mark.running().app.assertUnharmedSince(mark.logBytes());
        } catch (AssertionError e) {
            mark.running().failed = true;
            throw e;
        }
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            context.getStore(NAMESPACE).get(Mark.class, Mark.class).running().failed = true; // its log is wanted
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == HostileApp.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(Mark.class, Mark.class).running().app;
    }
}
