import { ajvValidator } from "../src/ajv.js";
import { cfworkerValidator, type JsonSchemaValidator } from "../src/index.js";

/** Both validators, for the tests that must give one verdict whichever compiles. */
export const validators: Array<[string, JsonSchemaValidator]> = [
  ["ajv", ajvValidator],
  ["cfworker", cfworkerValidator],
];

/** Problems in a stable order, for the few results whose order the two validators differ on. */
export function sorted<T extends { path: string; message: string }>(problems: T[]): T[] {
  return [...problems].sort((a, b) => a.path.localeCompare(b.path) || a.message.localeCompare(b.message));
}
