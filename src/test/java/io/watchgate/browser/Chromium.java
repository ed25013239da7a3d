package io.watchgate.browser;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real browser for the tests of what browsers do, one for each test class that extends with this: Debian's
 * Chromium, headless, driven through Debian's ChromeDriver (both installed by {@code .ci/run}; a class that needs
 * them is skipped without them). Nothing is downloaded: the flags turn off every update, sync and background fetch.
 * The class gets its browser as a parameter of its {@code @BeforeAll} method; the browser quits after the class, and
 * its profile (cookies and all) goes with it.
 */
public final class Chromium implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(Chromium.class);

    /** A browser and the profile directory it was given. */
    private record Started(ChromeDriver browser, Path profile) {
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Debian's chromium and chromium-driver (.ci/run installs them)");
        Path profile = Files.createTempDirectory("watchgate-chromium-");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
                "--window-size=1280,860", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
        context.getStore(NAMESPACE).put(Started.class, new Started(browser, profile));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        Started started = context.getStore(NAMESPACE).remove(Started.class, Started.class);
        if (started == null) {
            return;
        }
        started.browser().quit();
        try (var files = Files.walk(started.profile())) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ChromeDriver.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(Started.class, Started.class).browser();
    }
}
