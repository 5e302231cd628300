// The generated method table of this revision, by the tests every revision package shares (test-support/method-table.ts).
import { describeMethodTable } from "../../../test-support/method-table.js";
import { Method } from "../src/index.js";
import { pkg } from "./helpers.js";

await describeMethodTable({ Method, repoRoot: pkg.repoRoot, generatedDir: pkg.generatedDir, schema: pkg.schema });
