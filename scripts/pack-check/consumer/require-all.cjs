// CommonJS consumer: `require()` every entry of every package, require a
// non-empty object, and check that it holds the very values `import()` gives
// (one module instance, no dual-package copy). Prints one line per entry;
// exits 1 if any failed.
const { isTypesOnly, listEntries } = require("./entries.cjs");

async function main() {
  let failed = 0;
  for (const { name, specifier } of listEntries(process.cwd())) {
    try {
      const required = require(specifier);
      const names = Object.keys(required).filter((key) => key !== "default" && key !== "__esModule");
      if (names.length === 0 && !isTypesOnly(process.cwd(), name, specifier)) throw new Error("empty exports");
      const imported = await import(specifier);
      const differing = Object.keys(imported).filter((key) => key !== "default" && required[key] !== imported[key]);
      if (differing.length > 0) throw new Error(`require() and import() give different values for ${differing.slice(0, 5).join(", ")}`);
      console.log(
        `ok   require ${specifier} (${names.length === 0 ? "types only" : `${names.length} exports, the same values as import`})`,
      );
    } catch (error) {
      failed += 1;
      console.log(`FAIL require ${specifier}: ${error.code ?? ""} ${String(error.message).split("\n")[0]}`);
    }
  }
  return failed;
}

main().then(
  (failed) => process.exit(failed === 0 ? 0 : 1),
  (error) => {
    console.log(`FAIL ${error.stack}`);
    process.exit(1);
  },
);
