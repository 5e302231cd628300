/**
 * An elicitation answered through a pseudo-terminal: `x-mcp` runs in a tmux
 * pane (stdin and stderr are a TTY), the test types the answers with
 * `send-keys` as it sees each question in the pane's output (pipe-pane into
 * a FIFO: every wait is for output, none for time).
 */
import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debianBinary } from "../../../test-support/debian.js";
import { assertBuilt, BIN, STDIO, TSX } from "./run.js";

let tmux: string;
let dir: string;
const socket = () => join(dir, "tmux.sock");
const t = (...args: string[]) => execFileSync(tmux, ["-S", socket(), ...args], { encoding: "utf8" });

beforeAll(() => {
  assertBuilt();
  tmux = debianBinary("tmux", "tmux");
  dir = mkdtempSync(join(tmpdir(), "x-mcp-tty-"));
});
afterAll(() => {
  try {
    t("kill-server");
  } catch {
    // Already gone.
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Single-quoted for sh. */
const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

describe("x-mcp at a terminal", () => {
  it("asks the elicitation form on the terminal and sends the typed answers", async () => {
    const output = inPane("cli", ["call", "book_table", "restaurant=Chez", ...STDIO]);

    const steps: [string, number, string][] = [
      ["Answer? [Y]es", 1, "y"],
      ["people *", 1, "4"],
      ["Answer? [Y]es", 2, ""], // Enter alone: the default, yes
      ["3) 21:00", 1, "3"],
    ];
    for (const [question, nth, answer] of steps) {
      await output.seen(question, nth);
      t("send-keys", "-t", "cli", ...(answer ? [answer] : []), "Enter");
    }
    await output.seen("EXIT=", 1);
    const screen = t("capture-pane", "-p", "-t", "cli");
    expect(screen).toContain("The server asks: How many people for Chez?");
    expect(screen).toContain("Booked Chez for 4 at 21:00.");
    expect(screen).toContain("EXIT=0");
  });

  it("draws progress as a bar redrawn in place on stderr, erased before the result", async () => {
    const server = fileURLToPath(new URL("./fixtures/progress-server.ts", import.meta.url));
    const output = inPane("bar", ["call", "steps", "n=4", "--", process.execPath, "--import", TSX, server]);
    await output.seen("EXIT=", 1);
    // Each notification redraws the line (carriage return, erase to its end); the last one is full.
    expect(output.text()).toContain(`\r[${"#".repeat(30)}] 4/4 step 4\x1b[K`);
    expect(output.text()).toContain(`\r[${"#".repeat(15)}${".".repeat(15)}] 2/4 step 2\x1b[K`);
    const screen = t("capture-pane", "-p", "-t", "bar");
    expect(screen).toContain("done after 4 steps");
    expect(screen).not.toContain("4/4");
    expect(screen).toContain("EXIT=0");
  });
});

/**
 * Runs `x-mcp args` in a new tmux session `name`, with its output piped to
 * the test. The script waits for "go" so that pipe-pane is attached before
 * anything is printed, and keeps the pane open after the command.
 */
function inPane(name: string, args: readonly string[]) {
  const fifo = join(dir, `${name}.fifo`);
  execFileSync("mkfifo", [fifo]);
  const script = join(dir, `${name}.sh`);
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  writeFileSync(script, `read go\n${command}\necho "EXIT=$?"\nread done\n`);
  t("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "160", "-y", "50", `sh ${quote(script)}`);
  t("pipe-pane", "-t", name, `cat >> ${quote(fifo)}`);
  const output = paneOutput(fifo);
  t("send-keys", "-t", name, "go", "Enter");
  return output;
}

/** The pane's output as it comes, and a wait for the `nth` occurrence of a text in it. */
function paneOutput(fifo: string) {
  let text = "";
  let ended = false;
  const waiters = new Set<() => void>();
  const stream = createReadStream(fifo, { encoding: "utf8" });
  stream.on("data", (chunk) => {
    text += chunk;
    for (const wake of [...waiters]) wake();
  });
  stream.on("end", () => {
    ended = true;
    for (const wake of [...waiters]) wake();
  });
  const count = (needle: string) => text.split(needle).length - 1;
  return {
    text: () => text,
    seen(needle: string, nth: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (count(needle) >= nth) {
            waiters.delete(check);
            resolve();
          } else if (ended || (needle !== "EXIT=" && count("EXIT=") > 0)) {
            // The pane closed, or the command ended without printing it: fail now, not at the hang guard.
            waiters.delete(check);
            reject(new Error(`the command ended before ${JSON.stringify(needle)} #${nth}: ${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
