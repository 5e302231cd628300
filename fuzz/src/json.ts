/**
 * JSON as the fuzzer needs it: numbers kept as their raw text both ways, so
 * that an id or an argument like 9007199254740993 or 1e400 is sent and
 * compared digit for digit, which JSON.parse cannot do.
 */

/** A raw JSON token written as is (a number's text, mostly). */
export class Raw {
  constructor(readonly text: string) {}
}

/** Where a message's id goes; the driver fills in a unique id per case. */
export const ID_SLOT: unique symbol = Symbol("id");

/** A JSON tree to send: numbers as JS numbers (finite) or {@link Raw} text. */
export type J = null | boolean | number | string | Raw | typeof ID_SLOT | J[] | { [key: string]: J };

/** A JSON value read back losslessly: every number is a {@link Raw}. */
export type L = null | boolean | string | Raw | L[] | { [key: string]: L };

/** Writes `value` as compact JSON, {@link Raw} tokens verbatim and {@link ID_SLOT} as `idText`. */
export function stringify(value: J, idText = "null"): string {
  if (value === ID_SLOT) return idText;
  if (value === null) return "null";
  if (value instanceof Raw) return value.text;
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return JSON.stringify(value);
    case "string":
      return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => stringify(v, idText)).join(",")}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) parts.push(`${JSON.stringify(k)}:${stringify(v, idText)}`);
  return `{${parts.join(",")}}`;
}

/** `value` with {@link Raw} numbers as JS numbers (lossy), for code that takes plain JSON. */
export function plain(value: J | L): unknown {
  if (value === ID_SLOT) return 1;
  if (value instanceof Raw) return Number(value.text);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return value;
}

/** Thrown by {@link parseLossless} for text that is not JSON. */
export class JsonSyntaxError extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

/**
 * Parses JSON text keeping every number as its raw text. Strict (RFC 8259):
 * no trailing commas, no comments, one value. Iterative, so a deep document
 * cannot exhaust the stack.
 * @throws JsonSyntaxError
 */
export function parseLossless(text: string): L {
  let i = 0;
  const skip = () => {
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at ${i}`);
  };
  const readString = (): string => {
    // Find the closing quote (one not escaped), then let JSON.parse check the escapes.
    const start = i;
    let end = i;
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end === -1) fail("unterminated string");
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
    }
    i = end + 1;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail("bad string");
    }
  };
  const readScalar = (): L => {
    const c = text[i];
    if (c === '"') return readString();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || m[0] === "" || m[0] === "-") return fail("unexpected token");
    i = NUMBER.lastIndex;
    return new Raw(m[0]);
  };
  // Containers under construction; objects remember the key being filled.
  type Frame = { kind: "array"; value: L[] } | { kind: "object"; value: Record<string, L>; key: string | undefined };
  const stack: Frame[] = [];
  let result: L | undefined;
  let done = false;
  skip();
  while (!done) {
    let value: L | undefined;
    const c = text[i];
    if (c === "[") {
      i++;
      skip();
      const frame: Frame = { kind: "array", value: [] };
      if (text[i] === "]") {
        i++;
        value = frame.value;
      } else {
        stack.push(frame);
        continue;
      }
    } else if (c === "{") {
      i++;
      skip();
      const obj: Record<string, L> = {};
      if (text[i] === "}") {
        i++;
        value = obj;
      } else {
        if (text[i] !== '"') fail("expected key");
        const key = readString();
        skip();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        skip();
        stack.push({ kind: "object", value: obj, key });
        continue;
      }
    } else {
      value = readScalar();
    }
    // A value is complete: hand it to its container, closing containers as they end.
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        result = value;
        done = true;
        break;
      }
      if (top.kind === "array") top.value.push(value as L);
      else Object.defineProperty(top.value, top.key!, { value, enumerable: true, writable: true, configurable: true });
      skip();
      const next = text[i];
      if (next === ",") {
        i++;
        skip();
        if (top.kind === "object") {
          if (text[i] !== '"') fail("expected key");
          top.key = readString();
          skip();
          if (text[i] !== ":") fail("expected ':'");
          i++;
          skip();
        }
        break;
      }
      if ((top.kind === "array" && next === "]") || (top.kind === "object" && next === "}")) {
        i++;
        stack.pop();
        value = top.value;
        continue;
      }
      fail("expected ',' or a closing bracket");
    }
  }
  skip();
  if (i !== text.length) fail("text after the value");
  return result as L;
}

/**
 * The exact decimal value of a JSON number's text, in one canonical form
 * (`-0` is `0`; `1.0`, `1e0` and `1` agree; `9007199254740993` and
 * `9007199254740992` do not), or undefined for text that is not a number.
 */
export function canonicalNumber(text: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  let digits = (m[2] ?? "") + (m[3] ?? "");
  let exponent = BigInt(m[4] ?? "0") - BigInt((m[3] ?? "").length);
  digits = digits.replace(/^0+/, "");
  if (digits === "") return "0";
  const trimmed = digits.replace(/0+$/, "");
  exponent += BigInt(digits.length - trimmed.length);
  return `${m[1]}${trimmed}e${exponent}`;
}

/** True for the text of an integer beyond ±2^53 (a double cannot hold it exactly). */
export function isBigIntegerText(text: string): boolean {
  const canonical = canonicalNumber(text);
  if (!canonical) return false;
  const [mantissa, exponent] = canonical.split("e") as [string, string];
  if (BigInt(exponent) < 0n || BigInt(exponent) > 400n) return false;
  const value = BigInt(mantissa) * 10n ** BigInt(exponent);
  return value > 2n ** 53n || value < -(2n ** 53n);
}

/** True for the text of a number a double cannot hold at all (its magnitude overflows to Infinity). */
export function isOverflowText(text: string): boolean {
  return canonicalNumber(text) !== undefined && !Number.isFinite(Number(text));
}

/**
 * Compares a sent tree with the one echoed back: the first difference, as
 * the path and the two values' text, or undefined when they agree (numbers
 * by exact value, strings exactly, objects by their keys).
 */
export function firstDifference(sent: J | L, echoed: L, path = ""): { path: string; sent: string; echoed: string } | undefined {
  const diff = () => ({ path: path || "/", sent: short(sent), echoed: short(echoed) });
  if (sent instanceof Raw || typeof sent === "number") {
    const text = sent instanceof Raw ? sent.text : JSON.stringify(sent);
    if (!(echoed instanceof Raw) || canonicalNumber(text) !== canonicalNumber(echoed.text)) return diff();
    return undefined;
  }
  if (sent === ID_SLOT || sent === null || typeof sent !== "object") return sent === echoed ? undefined : diff();
  if (Array.isArray(sent)) {
    if (!Array.isArray(echoed) || echoed.length !== sent.length) return diff();
    for (let k = 0; k < sent.length; k++) {
      const d = firstDifference(sent[k]!, echoed[k]!, `${path}/${k}`);
      if (d) return d;
    }
    return undefined;
  }
  if (echoed === null || typeof echoed !== "object" || Array.isArray(echoed) || echoed instanceof Raw) return diff();
  const keys = Object.keys(sent);
  if (keys.length !== Object.keys(echoed).length) return diff();
  for (const key of keys) {
    if (!Object.hasOwn(echoed, key)) return diff();
    const d = firstDifference((sent as Record<string, J>)[key]!, echoed[key]!, `${path}/${key}`);
    if (d) return d;
  }
  return undefined;
}

function short(value: J | L | undefined): string {
  const text = value === undefined ? "(absent)" : stringify(value as J);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The deepest nesting of `{`/`[` in JSON bytes, strings skipped (what a server's depth limit counts). */
export function depthOf(bytes: Uint8Array): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k]!;
    if (inString) {
      if (b === 0x5c) k++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) max = Math.max(max, ++depth);
    else if (b === 0x7d || b === 0x5d) depth--;
  }
  return max;
}
