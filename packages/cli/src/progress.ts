/**
 * Progress notifications on stderr: a bar redrawn in place on a terminal,
 * one plain line each otherwise, nothing with `--quiet`.
 */
import type { ProgressNotificationParams } from "@x/client";
import type { Io } from "./io.js";
import { plain } from "./output.js";

const WIDTH = 30;

/** A progress reporter: `update` for each notification, `done` before anything else is printed. */
export interface Progress {
  update(params: ProgressNotificationParams): void;
  done(): void;
}

/** The reporter for `io.stderr`. */
export function progressOn(io: Io, quiet: boolean): Progress {
  let drawn = false;
  const tty = io.stderr.isTTY === true;
  return {
    update(params) {
      if (quiet) return;
      const { progress, total, message } = params;
      const count = total === undefined ? `${progress}` : `${progress}/${total}`;
      const text = message === undefined ? "" : ` ${plain(String(message))}`;
      if (!tty) {
        io.stderr.write(`progress ${count}${text}\n`);
        return;
      }
      const filled = total && total > 0 ? Math.max(0, Math.min(WIDTH, Math.round((progress / total) * WIDTH))) : 0;
      const bar = total && total > 0 ? `[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ` : "";
      // \r and "erase to end of line": the bar is redrawn on its own line.
      const line = `${bar}${count}${text}`.slice(0, 200);
      io.stderr.write(`\r${line}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write("\r\x1b[K");
      drawn = false;
    },
  };
}
