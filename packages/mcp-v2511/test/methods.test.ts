// The generated method table of this revision, by the tests every revision package shares (test-support/method-table.ts).
import { describeMethodTable } from "../../../test-support/method-table.js";
import { Method } from "../src/index.js";
import { generatedDir, repoRoot, schema } from "./helpers.js";

await describeMethodTable({ Method, repoRoot, generatedDir, schema });
