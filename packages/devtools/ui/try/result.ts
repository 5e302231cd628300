// Draws a call's result by kind: content blocks, structured content as a tree, the schema check.
import { h, pretty } from "../h.js";
import type { CallAnswer, Json, JsonObject } from "../types.js";
import { isObject } from "../types.js";

/** A `data:` URL for an image or audio block; undefined for any other MIME type or a non-base64 payload. */
export function dataUrl(kind: "image" | "audio", mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== "string" || typeof data !== "string") return undefined;
  if (!new RegExp(`^${kind}/[a-z0-9.+-]+$`, "i").test(mimeType)) return undefined;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

const bytesOfBase64 = (data: string) => Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);

function block(content: Json): HTMLElement {
  const c = isObject(content) ? content : {};
  const kind = String(c.type ?? "unknown");
  const wrap = (...children: (Node | string | undefined)[]) =>
    h("div", { class: `block ${kind}`, "data-testid": "block", "data-kind": kind }, ...children);
  switch (kind) {
    case "text":
      return wrap(h("pre", { class: "text" }, String(c.text ?? "")));
    case "image":
    case "audio": {
      const url = dataUrl(kind, c.mimeType, c.data);
      if (!url) return wrap(h("p", { class: "muted" }, `${kind} with MIME type ${String(c.mimeType)} not shown`));
      const media =
        kind === "image" ? h("img", { src: url, alt: `image (${String(c.mimeType)})` }) : h("audio", { src: url, controls: true });
      return wrap(media, h("small", { class: "muted" }, `${String(c.mimeType)}, ${bytesOfBase64(String(c.data))} bytes`));
    }
    case "resource_link":
      // The URI is shown, never followed: a link here could leave the page or fetch anything.
      return wrap(
        h(
          "span",
          { class: "link", title: "resource link (shown, not followed)" },
          "resource link ",
          h("b", {}, String(c.name ?? c.title ?? "")),
        ),
        " ",
        h("code", {}, String(c.uri ?? "")),
        c.mimeType ? h("small", { class: "muted" }, ` ${String(c.mimeType)}`) : undefined,
      );
    case "resource": {
      const r = isObject(c.resource) ? c.resource : {};
      return wrap(
        h("div", {}, h("code", {}, String(r.uri ?? "")), r.mimeType ? h("small", { class: "muted" }, ` ${String(r.mimeType)}`) : undefined),
        typeof r.text === "string"
          ? h("pre", { class: "text" }, r.text)
          : typeof r.blob === "string"
            ? h("p", { class: "muted" }, `blob, ${bytesOfBase64(r.blob)} bytes`)
            : undefined,
      );
    }
    default:
      return wrap(h("pre", {}, pretty(content)));
  }
}

/** A collapsible tree of a JSON value: every node `[data-testid=tree-node]`, text `key: value`. */
export function tree(value: Json, key = "", depth = 0): HTMLElement {
  const label = key === "" ? "" : `${key}: `;
  if (Array.isArray(value) || isObject(value)) {
    const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const shape = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const details = h("details", { open: depth < 3 }, h("summary", { "data-testid": "tree-node" }, `${label}${shape}`));
    details.append(h("ul", {}, ...entries.map(([k, v]) => h("li", {}, tree(v, k, depth + 1)))));
    return details;
  }
  return h(
    "span",
    { "data-testid": "tree-node", class: `leaf ${value === null ? "null" : typeof value}` },
    `${label}${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
}

/** Draws what `api/call` answered. */
export function drawResult(answer: CallAnswer): HTMLElement {
  if (!answer.ok) {
    const e = answer.error;
    return h(
      "div",
      { class: "result error", "data-testid": "result", "data-is-error": "true", "data-error-code": e.code },
      h("h3", {}, `Error ${e.code}`),
      h("pre", { class: "text" }, e.message),
      e.data !== undefined ? h("pre", {}, pretty(e.data)) : undefined,
    );
  }
  const result: JsonObject = answer.result;
  const isError = result.isError === true;
  const parts: (Node | undefined)[] = [h("h3", {}, isError ? h("span", { class: "badge is-error" }, "isError") : "Result")];
  const content = Array.isArray(result.content) ? result.content : [];
  parts.push(...content.map(block));
  // A prompt's messages and a resource's contents, drawn with the same blocks.
  if (Array.isArray(result.messages))
    for (const m of result.messages)
      parts.push(
        h(
          "div",
          { class: "message" },
          h("b", {}, `${String(isObject(m) ? m.role : "")}:`),
          block(isObject(m) ? (m.content ?? null) : null),
        ),
      );
  if (Array.isArray(result.contents)) parts.push(...result.contents.map((r) => block({ type: "resource", resource: r })));
  if (result.structuredContent !== undefined) {
    const check = answer.check;
    parts.push(
      h(
        "div",
        { class: "structured", "data-testid": "structured" },
        h("h4", {}, "structuredContent"),
        tree(result.structuredContent),
        check
          ? h(
              "div",
              { class: `check ${check.valid ? "valid" : "invalid"}`, "data-testid": "schema-check", "data-valid": String(check.valid) },
              check.valid ? "✓ matches the output schema" : "✗ does not match the output schema",
              check.problems.length ? h("ul", {}, ...check.problems.map((p) => h("li", {}, p))) : undefined,
            )
          : undefined,
      ),
    );
  }
  parts.push(h("details", { class: "raw" }, h("summary", {}, "raw result"), h("pre", {}, pretty(result))));
  return h("div", { class: `result${isError ? " is-error" : ""}`, "data-testid": "result", "data-is-error": String(isError) }, ...parts);
}
