// The generated sources of this revision, by the tests every revision package shares (test-support/revision-generated.ts).
import { describeGeneratedFiles } from "../../../test-support/revision-generated.js";
import * as validators from "../src/generated/validators.js";
import { pkg } from "./helpers.js";

await describeGeneratedFiles(pkg, validators);
