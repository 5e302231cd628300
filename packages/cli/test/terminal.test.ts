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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debianBinary } from "../../../test-support/debian.js";
import { assertBuilt, BIN, STDIO } from "./run.js";

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
    const fifo = join(dir, "pane.fifo");
    execFileSync("mkfifo", [fifo]);
    const script = join(dir, "run.sh");
    const command = [process.execPath, BIN, "call", "book_table", "restaurant=Chez", ...STDIO].map(quote).join(" ");
    // Waits for "go" so that pipe-pane is attached before anything is printed; keeps the pane open after.
    writeFileSync(script, `read go\n${command}\necho "EXIT=$?"\nread done\n`);
    t("-f", "/dev/null", "new-session", "-d", "-s", "cli", "-x", "160", "-y", "50", `sh ${quote(script)}`);
    t("pipe-pane", "-t", "cli", `cat >> ${quote(fifo)}`);
    const output = paneOutput(fifo);
    t("send-keys", "-t", "cli", "go", "Enter");

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
});

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
    seen(needle: string, nth: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (count(needle) >= nth) {
            waiters.delete(check);
            resolve();
          } else if (ended) {
            waiters.delete(check);
            reject(new Error(`the pane closed before ${JSON.stringify(needle)} #${nth}: ${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
