#!/usr/bin/env node
// Bundles the page (ui/main.ts and ui/style.css) with esbuild, minified, and
// writes src/ui-bundle.generated.ts: the page's JavaScript and CSS as two
// string constants, so that the package serves its page from memory (no file
// read at run time, the same in ES modules and CommonJS, no network).
// The generated file is not committed: every build and typecheck writes it.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundle = async (entry, loader) => {
  const out = await build({
    entryPoints: [join(root, "ui", entry)],
    bundle: true,
    minify: true,
    write: false,
    format: loader === "css" ? undefined : "iife",
    target: ["chrome120", "firefox120"],
    charset: "ascii",
    legalComments: "none",
    logLevel: "error",
  });
  return out.outputFiles[0].text;
};
const js = await bundle("main.ts");
const css = await bundle("style.css", "css");
writeFileSync(
  join(root, "src", "ui-bundle.generated.ts"),
  `// Written by scripts/build-ui.mjs from ui/: do not edit.\n/** The page's script (an IIFE, ASCII). */\nexport const APP_JS: string = ${JSON.stringify(js)};\n/** The page's style sheet. */\nexport const APP_CSS: string = ${JSON.stringify(css)};\n`,
);
// The page's weight, reported on every build (the budget: under 40 KB of minified script).
const gz = (text) => gzipSync(text, { level: 9 }).length;
process.stdout.write(`devtools ui: ${js.length} bytes of script (${gz(js)} gzipped), ${css.length} of style (${gz(css)} gzipped)\n`);
