// A person at the demo's terminal, for the examples' tests.
import type { DemoIO } from "../src/client-demo.js";

/** A scripted person: answers in order, then input ends. */
export function scripted(answers: string[]): DemoIO & { output: string[] } {
  const output: string[] = [];
  const queue = [...answers];
  return {
    output,
    print: (line) => output.push(line),
    ask: async (question) => {
      output.push(question);
      return queue.shift();
    },
  };
}
