/** This package's revision, schema and fixtures, for its tests (test-support/revision-package.ts). */
import { revisionPackage } from "../../../test-support/revision-package.js";

export const pkg = await revisionPackage(import.meta.url);
