/**
 * Debian packages a test needs on the machine (nginx, redis-server): found
 * on PATH or in /usr/sbin, installed with apt-get when missing and the test
 * runs as root (as on CI), else a clear error that says what to install.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * The path of `binary`, installing Debian's `pkg` first when it is missing.
 * @throws Error naming the package when it is missing and the test is not root, or the install failed.
 */
export function debianBinary(binary: string, pkg: string): string {
  const find = () =>
    spawnSync("sh", ["-c", `command -v ${binary} || ls /usr/sbin/${binary} /usr/bin/${binary} 2>/dev/null`], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")[0];
  const found = find();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(`${binary} is missing: install Debian's ${pkg} (apt-get install ${pkg}) to run this test`);
  }
  const install = `apt-get install -y -qq --no-install-recommends ${pkg} >/dev/null 2>&1`;
  execFileSync("sh", ["-c", `${install} || (apt-get update -qq >/dev/null 2>&1 && ${install})`], { timeout: 240_000 });
  const installed = find();
  if (!installed || !existsSync(installed)) throw new Error(`installing ${pkg} did not give ${binary}`);
  return installed;
}
