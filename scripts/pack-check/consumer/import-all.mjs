// ESM consumer: `import()` every entry of every package and require a
// non-empty namespace. Prints one line per entry; exits 1 if any failed.
import { createRequire } from "node:module";

const { isTypesOnly, listEntries } = createRequire(import.meta.url)("./entries.cjs");
let failed = 0;
for (const { name, specifier } of listEntries(process.cwd())) {
  try {
    const namespace = await import(specifier);
    const names = Object.keys(namespace).filter((key) => key !== "default");
    if (names.length === 0 && !isTypesOnly(process.cwd(), name, specifier)) throw new Error("empty namespace");
    console.log(`ok   import ${specifier} (${names.length === 0 ? "types only" : `${names.length} exports`})`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL import ${specifier}: ${error.code ?? ""} ${String(error.message).split("\n")[0]}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
