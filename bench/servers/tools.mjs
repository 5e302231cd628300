// The two tools every server under test registers, as plain data, so that
// each server does the same work: `echo` (text in, text out) and `add`
// (an outputSchema, answered with structuredContent).

/** JSON Schema of echo's arguments. */
export const echoInput = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
/** JSON Schema of add's arguments. */
export const addInput = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
/** JSON Schema of add's structuredContent. */
export const addOutput = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };

/** The handler of echo: one text block. */
export const echo = ({ text }) => ({ content: [{ type: "text", text }] });
/** The handler of add: the sum as text and as structuredContent. */
export const add = ({ a, b }) => {
  const sum = { sum: a + b };
  return { content: [{ type: "text", text: JSON.stringify(sum) }], structuredContent: sum };
};

export const SERVER_INFO = { name: "bench", version: "1.0.0" };
