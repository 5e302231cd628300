/**
 * The browsers of the browser tests, from Debian's packages (installed when
 * missing, see debian.ts): chromium-headless-shell, driven by
 * playwright-core, and Firefox ESR, driven by puppeteer-core over WebDriver
 * BiDi; neither library downloads a browser of its own. Every browser a test launches is closed
 * by the test (and with it its processes).
 */
import { debianBinary } from "./debian.js";

/** The path of the system's headless Chromium, installing Debian's package first when it is missing. */
export function chromiumPath(): string {
  return debianBinary("chromium-headless-shell", "chromium-headless-shell");
}

/** The path of Debian's Firefox ESR, installing it first when it is missing (driven over WebDriver BiDi by puppeteer-core). */
export function firefoxPath(): string {
  return debianBinary("firefox-esr", "firefox-esr");
}
