import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { classify, isRequestId, parseJson, readJson, replaceBigInts, stringifyJson } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Any JSON value whose numbers are bigints of any size, safe integers, or finite doubles. */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    fc.bigInt(),
    fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("json"), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie("json"), { maxKeys: 4 }),
  ),
}));

/**
 * What a value reads back as: a bigint inside the safe range is a number; -0 is 0 (JSON.stringify
 * writes "0"); a double beyond 2^53 that JSON.stringify writes out as digits is a bigint of those digits.
 */
function normal(value: unknown): unknown {
  if (typeof value === "bigint") return value >= -SAFE && value <= SAFE ? Number(value) : value;
  if (typeof value === "number") {
    const text = JSON.stringify(value);
    return value === 0 ? 0 : !Number.isSafeInteger(value) && /^-?\d+$/.test(text) ? BigInt(text) : value;
  }
  if (Array.isArray(value)) return value.map(normal);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normal(v)]));
  return value;
}

describe("parseJson", () => {
  it("reads an integer literal beyond ±(2^53 − 1) as a bigint with every digit; a safe one stays a number", () => {
    expect(parseJson("9007199254740993")).toBe(9007199254740993n);
    expect(parseJson("-9007199254740993")).toBe(-9007199254740993n);
    expect(parseJson("9007199254740992")).toBe(9007199254740992n);
    expect(parseJson("12345678901234567890123")).toBe(12345678901234567890123n);
    expect(parseJson("9007199254740991")).toBe(9007199254740991);
    expect(parseJson("-9007199254740991")).toBe(-9007199254740991);
    expect(parseJson("1000000000000000")).toBe(1e15);
    expect(parseJson('{"a":[1,9007199254740993,{"b":18446744073709551616}],"c":2}')).toStrictEqual({
      a: [1, 9007199254740993n, { b: 18446744073709551616n }],
      c: 2,
    });
  });

  it("keeps IEEE double semantics for decimals and exponents, Infinity included", () => {
    expect(parseJson("9007199254740993.0")).toBe(9007199254740992);
    expect(parseJson("1.2345678901234567890")).toBe(1.2345678901234567);
    expect(parseJson("12345678901234567890e0")).toBe(12345678901234567000);
    expect(parseJson("1e400")).toBe(Number.POSITIVE_INFINITY);
    expect(parseJson("-1e400")).toBe(Number.NEGATIVE_INFINITY);
    expect(parseJson("[1e-400,12345678901234567]")).toStrictEqual([0, 12345678901234567n]);
    expect(parseJson('{"x":1E+400,"y":12345678901234567}')).toStrictEqual({ x: Number.POSITIVE_INFINITY, y: 12345678901234567n });
  });

  it("finds a 16-digit integer wherever it sits in the text", () => {
    for (let pad = 0; pad < 40; pad++) {
      const text = `{"k":"${"x".repeat(pad)}","n":9007199254740993,"m":[${"1".repeat(15)},-1${"0".repeat(16)}]}`;
      expect(parseJson(text)).toStrictEqual({ k: "x".repeat(pad), n: 9007199254740993n, m: [111_111_111_111_111, -(10n ** 16n)] });
    }
    expect(parseJson("-9007199254740993")).toBe(-9007199254740993n);
    expect(parseJson(`[${"1".repeat(15)}]`)).toStrictEqual([111_111_111_111_111]);
  });

  it("readJson says which parser read the text: lossless only with a run of 16 digits, strings included", () => {
    expect(readJson('{"id":9007199254740993}')).toStrictEqual({ ok: true, value: { id: 9007199254740993n }, lossless: true });
    expect(readJson('{"s":"1234567890123456"}')).toStrictEqual({ ok: true, value: { s: "1234567890123456" }, lossless: true });
    expect(readJson('{"n":123456789012345}')).toStrictEqual({ ok: true, value: { n: 123456789012345 }, lossless: false });
    expect(() => readJson("{")).toThrow(SyntaxError);
  });

  it("leaves strings alone, digits or not", () => {
    expect(parseJson('{"s":"12345678901234567890","n":12345678901234567890}')).toStrictEqual({
      s: "12345678901234567890",
      n: 12345678901234567890n,
    });
  });

  it("behaves as JSON.parse on the lossless path too: last duplicate key wins, __proto__ is an own key, -0 stays -0", () => {
    const value = parseJson('{"a":1,"a":2,"__proto__":{"x":1},"big":12345678901234567890,"z":-0}') as Record<string, unknown>;
    expect(value.a).toBe(2);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.is(value.z, -0)).toBe(true);
    expect(Object.keys(value)).toEqual(Object.keys(JSON.parse('{"a":1,"a":2,"__proto__":{"x":1},"big":1,"z":-0}')));
  });

  it("reads any JSON text as JSON.parse on the second path too: whitespace, escapes, nesting, odd keys", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, "\t"), (value, indent) => {
        // The trailing 16-digit safe integer sends the text down the second path.
        const text = `[ ${JSON.stringify(value, null, indent)} ,\n 1234567890123456 ]`;
        const read = readJson(text);
        expect(read.lossless).toBe(true);
        expect(replaceBigInts(read.value, Number)).toStrictEqual(JSON.parse(text));
      }),
    );
    const text = '{"__proto__":1,"a\\"b":"\\u00e9\\n","":[ ],"e":{ },"t":true,"f":false,"z":null,"n":-1.5e-3,"big":-12345678901234567890}';
    const expected = JSON.parse(text.replace("-12345678901234567890", "0"));
    expected.big = -12345678901234567890n;
    expect(parseJson(text)).toStrictEqual(expected);
  });

  it("throws SyntaxError for text that is not JSON, on either path", () => {
    for (const text of ["", "{", "[1,]", "12345678901234567890 x", '{"n":12345678901234567890', "0123", "NaN"]) {
      expect(() => parseJson(text)).toThrow(SyntaxError);
    }
  });

  it("is JSON.parse for any JSON text without a 16-digit run", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        fc.pre(!/\d{16}/.test(text));
        expect(parseJson(text)).toStrictEqual(JSON.parse(text));
      }),
    );
  });

  it("is JSON.parse once bigints are made numbers, for any JSON text", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = stringifyJson(value);
        expect(replaceBigInts(parseJson(text), Number)).toStrictEqual(JSON.parse(text));
      }),
    );
  });
});

describe("stringifyJson", () => {
  it("writes a bigint as its digits, at any depth", () => {
    expect(stringifyJson(2n ** 64n)).toBe("18446744073709551616");
    expect(stringifyJson({ a: [1, -(10n ** 30n)], b: "x", c: undefined, d: new Date(0) })).toBe(
      `{"a":[1,-1${"0".repeat(30)}],"b":"x","d":"1970-01-01T00:00:00.000Z"}`,
    );
    expect(stringifyJson([undefined, () => 1, 5n])).toBe("[null,null,5]");
  });

  it("is JSON.stringify for a value without a bigint", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
    );
    expect(stringifyJson(undefined)).toBeUndefined();
  });

  it("draws a fresh marker when the value holds the one drawn first", () => {
    // The first draw is all zeros and the value holds that marker; the second is random.
    const marker = `\u2063${"0".repeat(28)}`;
    const draw = vi.spyOn(globalThis.crypto, "getRandomValues").mockImplementationOnce((array) => array);
    try {
      expect(stringifyJson({ s: `${marker}5`, t: [`"${marker}6"`], n: 7n })).toBe(
        JSON.stringify({ s: `${marker}5`, t: [`"${marker}6"`], n: 7 }),
      );
      expect(draw).toHaveBeenCalledTimes(2);
    } finally {
      draw.mockRestore();
    }
  });

  it("needs no Math.random: stubbed to 0, a string holding U+2063 is still written", () => {
    const random = vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      expect(stringifyJson(["\u2063", "\u20630", 1n])).toBe('["\u2063","\u20630",1]');
    } finally {
      random.mockRestore();
    }
  });

  it("runs a getter once more at most, and only one pass after the attempt that threw", () => {
    let calls = 0;
    const value = {
      get a() {
        calls++;
        return "\u2063";
      },
      b: 2n,
    };
    const random = vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      expect(stringifyJson(value)).toBe('{"a":"\u2063","b":2}');
      expect(calls).toBe(2);
    } finally {
      random.mockRestore();
    }
    // A getter or toJSON met after the first bigint runs once.
    let toJson = 0;
    expect(stringifyJson({ b: 1n, t: { toJSON: () => (++toJson === 1 ? "first" : "second") } })).toBe('{"b":1,"t":"first"}');
    expect(toJson).toBe(1);
  });

  it("throws TypeError for a cycle, as JSON.stringify", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => stringifyJson(cycle)).toThrow(TypeError);
  });
});

describe("parseJson and stringifyJson round-trip bigints", () => {
  it("every bigint comes back with its digits (as a number when it is a safe integer)", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = stringifyJson(value);
        expect(parseJson(text)).toStrictEqual(normal(value));
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
    );
  });

  it("a big request id is classified with its exact value and written back with its digits", () => {
    fc.assert(
      fc.property(
        fc.bigInt().filter((n) => n > SAFE || n < -SAFE),
        (id) => {
          const message = parseJson(`{"jsonrpc":"2.0","id":${id},"method":"m"}`);
          const classified = classify(message);
          expect(classified).toMatchObject({ kind: "request", id });
          expect(isRequestId(id)).toBe(true);
          expect(stringifyJson({ jsonrpc: "2.0", id: (classified as { id: bigint }).id, result: {} })).toBe(
            `{"jsonrpc":"2.0","id":${id},"result":{}}`,
          );
        },
      ),
    );
  });
});

describe("replaceBigInts", () => {
  it("returns the value itself when it holds no bigint, and copies only the way to each one", () => {
    const shared = { deep: [1, 2] };
    const value = { shared, list: [1, { n: 5n }], s: "x" };
    expect(replaceBigInts(shared, String)).toBe(shared);
    const replaced = replaceBigInts(value, String) as typeof value;
    expect(replaced).toStrictEqual({ shared, list: [1, { n: "5" }], s: "x" });
    expect(replaced.shared).toBe(shared);
    expect(value.list[1]).toStrictEqual({ n: 5n });
    const proto = parseJson('{"__proto__":{"n":12345678901234567890}}') as Record<string, unknown>;
    const copy = replaceBigInts(proto, Number) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
  });

  it("with Number, gives back what JSON.parse reads: the same nearest double for any integer, Infinity past the range", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 400n), max: 10n ** 400n }), (n) => {
        const text = `[${n},{"n":${n}}]`;
        expect(replaceBigInts(parseJson(text), Number)).toStrictEqual(JSON.parse(text));
      }),
    );
    expect(replaceBigInts(parseJson(`1${"0".repeat(400)}`), Number)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("big integers need no dependency", () => {
  it("the built package copied alone into an empty folder reads and writes them", () => {
    const dist = join(here, "..", "dist");
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-jsonrpc-"));
    try {
      for (const file of readdirSync(dist)) if (file.endsWith(".js")) copyFileSync(join(dist, file), join(dir, file));
      const url = pathToFileURL(join(dir, "index.js")).href;
      const out = execFileSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const m = await import(${JSON.stringify(url)}); console.log(m.stringifyJson(m.parseJson('{"n":9007199254740993}')), m.stringifyJson(2n ** 64n));`,
        ],
        { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_PATH: "" } },
      );
      expect(out.trim()).toBe('{"n":9007199254740993} 18446744073709551616');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
