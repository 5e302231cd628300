// The large-result tools of the cost-growth rows (growth-x.mjs) and of the
// in-process ruler (micro/large-path.mjs): text-K answers a K KB text block,
// struct-K about K KB of structuredContent (small objects in an array)
// checked against an outputSchema, with a one-line text.

/** JSON Schema of one item of struct-K's structuredContent. */
const ITEM = {
  type: "object",
  properties: { id: { type: "integer" }, name: { type: "string" }, value: { type: "number" } },
  required: ["id", "name", "value"],
};
/** JSON Schema of struct-K's structuredContent. */
export const STRUCT_OUTPUT = { type: "object", properties: { items: { type: "array", items: ITEM } }, required: ["items"] };

/** About `kb` KB of text. */
export const textOf = (kb) => "x".repeat(kb * 1024);

/** About `kb` KB of structuredContent when serialized: items of about 50 bytes each. */
export function structOf(kb) {
  const items = [];
  let bytes = 12;
  for (let i = 0; bytes < kb * 1024; i++) {
    const item = { id: i, name: `item-${i}`, value: i * 0.5 };
    items.push(item);
    bytes += JSON.stringify(item).length + 1;
  }
  return { items };
}

/** Registers text-K and struct-K on `server` for each K in `sizesKB`; the results are built once and answered every call. */
export function registerLargeTools(server, sizesKB) {
  for (const kb of sizesKB) {
    const text = textOf(kb);
    server.registerTool(`text-${kb}`, { description: `A text result of ${kb} KB` }, () => ({ content: [{ type: "text", text }] }));
    const structured = structOf(kb);
    const summary = `${structured.items.length} items`;
    server.registerTool(`struct-${kb}`, { description: `A structured result of ${kb} KB`, outputSchema: STRUCT_OUTPUT }, () => ({
      content: [{ type: "text", text: summary }],
      structuredContent: structured,
    }));
  }
}
