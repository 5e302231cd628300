// Numbers in tool arguments against the real fixture: `add` (a `number` schema, no opt-in) with any
// two numbers, integers beyond 2^53 most of all, is never a tool fault and answers the double sum of
// what JSON.parse reads; the oracle of that probe, on answers written by hand.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectationOf } from "../src/cases.js";
import { check, sumViolations } from "../src/check.js";
import { HttpDriver, StdioDriver } from "../src/drivers.js";
import { addNumbersCase } from "../src/generators.js";
import { parseLossless, Raw } from "../src/json.js";
import { FixtureProcess } from "../src/server.js";

const CASES = 150;
const SEED = 20260728;

describe("the sum probe", () => {
  const result = (text: string) => parseLossless(text) as { [key: string]: never };
  const big = { a: new Raw("9007199254740993"), b: 1 };

  it("counts a tool fault for numeric arguments, whatever the numbers", () => {
    const fault = result(
      '{"resultType":"complete","isError":true,"content":[],"structuredContent":{"errorType":"tool_fault","message":"Cannot mix BigInt and other types"}}',
    );
    expect(sumViolations(big, fault).map((v) => v.kind)).toEqual(["number-tool-fault"]);
    expect(sumViolations({ a: new Raw("1e400"), b: 1 }, fault).map((v) => v.kind)).toEqual(["number-tool-fault"]);
    expect(sumViolations({ a: new Raw("1e308"), b: new Raw("1e308") }, fault).map((v) => v.kind)).toEqual(["number-tool-fault"]);
  });

  it("lets the handler's builder refuse a sum past the double range, and only that", () => {
    const refusal = result(
      '{"resultType":"complete","isError":true,"content":[],"structuredContent":{"errorType":"tool_fault","message":"entries[0][1].sum is Infinity, which JSON cannot carry (it would be sent as null)"}}',
    );
    expect(sumViolations({ a: new Raw("1.7976931348623151e+308"), b: new Raw("1.7976931348623127e+308") }, refusal)).toEqual([]);
    expect(sumViolations(big, refusal).map((v) => v.kind)).toEqual(["number-tool-fault"]);
    expect(sumViolations({ a: new Raw("1e400"), b: 1 }, refusal).map((v) => v.kind)).toEqual(["number-tool-fault"]);
  });

  it("wants JSON.parse's double sum for finite numbers, and lets a refusal of non-finite ones pass", () => {
    const sum = (text: string) => result(`{"resultType":"complete","content":[],"structuredContent":{"sum":${text}}}`);
    // 2^53 + 1 is read as 2^53, and 2^53 + 1 rounds to 2^53 again.
    expect(sumViolations(big, sum("9007199254740992"))).toEqual([]);
    expect(sumViolations({ a: new Raw("9007199254740995"), b: 1 }, sum("9007199254740996"))).toEqual([]);
    expect(sumViolations({ a: new Raw("9007199254740995"), b: 1 }, sum("9007199254740994")).map((v) => v.kind)).toEqual([
      "number-sum-wrong",
    ]);
    const refused = result('{"resultType":"complete","isError":true,"content":[{"type":"text","text":"Invalid arguments"}]}');
    expect(sumViolations(big, refused).map((v) => v.kind)).toEqual(["number-sum-wrong"]);
    expect(sumViolations({ a: new Raw(`9${"0".repeat(320)}`), b: 1 }, refused)).toEqual([]);
    expect(sumViolations({ a: new Raw("1e308"), b: new Raw("1e308") }, refused)).toEqual([]);
  });
});

describe.each(["http", "stdio"] as const)("add with any numbers over %s", (transport) => {
  it(`answers ${CASES} cases with the double sum and never a tool fault`, async () => {
    const server = await FixtureProcess.start(transport);
    const http = transport === "http" ? new HttpDriver(server.port, 4, 60_000) : undefined;
    const stdio = transport === "stdio" ? new StdioDriver(server.child.stdin!, server.child.stdout!, 60_000) : undefined;
    try {
      const cases = fc.sample(addNumbersCase, { seed: SEED, numRuns: CASES });
      const found: string[] = [];
      let bigSent = 0;
      for (const [index, c] of cases.entries()) {
        const rendered = c.render(index);
        const expectation = expectationOf(c, transport);
        const observed = http ? await http.send(c, rendered) : await stdio!.send(c, rendered, expectation, index);
        for (const v of check(expectation, observed, rendered.idText, c.category)) found.push(`${v.kind}: ${v.detail}`);
        if (/"[ab]":-?\d{17,30}[,}]/.test(Buffer.from(rendered.bytes).toString("utf8"))) bigSent++;
      }
      expect(found).toEqual([]);
      // The family is mostly integers beyond 2^53: a good share of the cases carried one.
      expect(bigSent).toBeGreaterThan(CASES / 4);
      expect(server.alive).toBe(true);
    } finally {
      http?.agent.destroy();
      stdio?.close();
      await server.stop();
    }
  });
});
