import { SchemaCompileError } from "../src/index.js";

/** The SchemaCompileError `run` throws; fails the test when it throws nothing or something else. */
export function refusal(run: () => unknown): SchemaCompileError {
  try {
    run();
  } catch (error) {
    if (error instanceof SchemaCompileError) return error;
    throw error;
  }
  throw new Error("expected a SchemaCompileError");
}
