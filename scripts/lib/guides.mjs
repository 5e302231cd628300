// The code of a guide (docs/*.md): its `ts` blocks, in order, as one module.
// Shared by scripts/api-docs.mjs, which type-checks it, and by the tests that
// run it (examples/test/guides.test.ts), so both read the same program.
//
// A block opened with exactly ```ts is part of the program. Any other info
// string is shown to the reader but left out: ```ts not-compiled for a sample
// that needs what the packages do not have yet, ```ts official-sdk or
// ```ts tmcp for another library's code (docs/migration.md).

/** The GUIDES whose `ts` blocks form one program each (paths from the root). */
export const GUIDES = ["docs/server.md", "docs/client.md", "docs/migration.md"];

/**
 * The `ts` blocks of a guide's Markdown text, concatenated in order: `code`
 * is the module, `from[i]` the guide's line (1-based) of its line `i`.
 */
export function guideCode(markdown) {
  const code = [];
  const from = [];
  let inBlock = false;
  markdown.split("\n").forEach((line, i) => {
    if (!inBlock && /^```ts\s*$/.test(line)) inBlock = true;
    else if (inBlock && /^```\s*$/.test(line)) inBlock = false;
    else if (inBlock) {
      code.push(line);
      from.push(i + 1);
    }
  });
  return { code: code.length === 0 ? "" : `${code.join("\n")}\n`, from };
}
