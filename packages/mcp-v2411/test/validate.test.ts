// validate and validateStrict of this revision, by the tests every revision package shares (test-support/revision-validate.ts).
import { describeValidate } from "../../../test-support/revision-validate.js";
import { validateStrict } from "../src/generated/strict.js";
import { validate } from "../src/index.js";
import { pkg } from "./helpers.js";

describeValidate(pkg, validate, validateStrict);
