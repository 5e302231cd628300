/**
 * Headless Chromium for the browser tests: Debian's chromium-headless-shell
 * (installed when missing, see debian.ts), driven by playwright-core, which
 * downloads no browser of its own. Every browser a test launches is closed
 * by the test (and with it its processes).
 */
import { debianBinary } from "./debian.js";

/** The path of the system's headless Chromium, installing Debian's package first when it is missing. */
export function chromiumPath(): string {
  return debianBinary("chromium-headless-shell", "chromium-headless-shell");
}
