package io.watchgate.browser;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real browser for the tests of what browsers do: Debian's Chromium, headless, driven through Debian's ChromeDriver
 * (both installed by {@code .ci/run}; a test that needs them is skipped without them). Nothing is downloaded: the
 * flags turn off every update, sync and background fetch.
 */
public final class Chromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {
    }

    /** Starts a browser with a profile of its own, or skips the calling test where Chromium is not installed. */
    public static ChromeDriver start() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Debian's chromium and chromium-driver (.ci/run installs them)");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
                "--window-size=1280,860", "--user-data-dir=" + Files.createTempDirectory("watchgate-chromium-"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
        return browser;
    }
}
