/** `key=value` operands of `call` and `prompt`: one value per key, any key name. */
import { beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../src/args.js";
import { callArguments } from "../src/commands/call.js";
import { promptArguments } from "../src/commands/prompt.js";
import { assertBuilt, x } from "./run.js";

beforeAll(assertBuilt);

describe("key=value operands", () => {
  it("refuse a key given twice, with exit code 2 and nothing sent", async () => {
    expect(() => callArguments(["a=1", "a=2"])).toThrow(UsageError);
    expect(() => promptArguments(["a=1", "a=2"])).toThrow(UsageError);
    // Port 9 refuses connections: exit code 3 would mean the command tried to connect.
    for (const command of ["call", "prompt"]) {
      const run = await x([command, "http://127.0.0.1:9/mcp", "t", "a=1", "a=2"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('"a" given twice');
    }
  });

  it("keep __proto__ as an argument like any other", () => {
    const args = callArguments(['__proto__={"x":1}', "b=2"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(args))).toEqual({ ["__proto__"]: { x: 1 }, b: 2 });
    expect(Object.keys(promptArguments(["__proto__=hi"]))).toEqual(["__proto__"]);
  });
});
