/**
 * Reading results as they come off the wire, whatever feature asked: the
 * `resultType` first (spec: basic/index "ResultType"), the arrays a helper
 * relies on, and lists followed page by page (server/utilities/pagination).
 */
import { isObject, stringifyJson } from "@x/jsonrpc";
import type { InputRequiredResult } from "@x/mcp-v2607";
import { RESULT_TYPE_TASK, TASK_AUGMENTABLE_METHODS, TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { ClientErrorCode, clip, McpClientError } from "./errors.js";
import type { Result } from "./options.js";

export { isObject };

/** An error for a result that breaks what the client relies on (-32094). */
export function invalidResult(message: string, data?: Record<string, unknown>): McpClientError {
  return new McpClientError(ClientErrorCode.InvalidResult, message, data);
}

/**
 * Reads `resultType` first (spec: basic/index "ResultType"): absent means
 * `"complete"` (a server of an older revision). `"task"` (the tasks
 * extension's handle) is valid only for a method that may have one and a
 * request that declared the extension (`tasksDeclared`); the extension
 * makes any other an invalid response ("Capability Negotiation"). Any other
 * kind is invalid.
 */
export function kindOf(result: Result, method: string, tasksDeclared = false): "complete" | "input_required" | "task" {
  if (!Object.hasOwn(result, "resultType")) return "complete";
  const kind = result.resultType;
  if (kind === "complete" || kind === "input_required") return kind;
  if (kind === RESULT_TYPE_TASK) {
    if (!TASK_AUGMENTABLE_METHODS.has(method)) {
      throw invalidResult(
        `The server answered ${method} with a task handle (resultType "task"), which only ${[...TASK_AUGMENTABLE_METHODS].join(", ")} may answer`,
        { resultType: kind },
      );
    }
    if (!tasksDeclared) {
      throw invalidResult(
        `The server answered ${method} with a task handle (resultType "task"), but the request did not declare the ${TASKS_EXTENSION} extension`,
        { resultType: kind },
      );
    }
    return "task";
  }
  throw invalidResult(`The result of ${method} has an unknown resultType ${clip(stringifyJson(kind) ?? String(kind))}`, {
    resultType: kind,
  });
}

/** {@link kindOf} as a type guard: true for `input_required`; throws on an unknown kind. */
export function isInputRequired<R extends Result>(
  result: R | InputRequiredResult,
  method: string,
  tasksDeclared = false,
): result is InputRequiredResult {
  return kindOf(result, method, tasksDeclared) === "input_required";
}

/** A complete result: reads `resultType`, refusing `input_required` (only three methods may send it). */
export function completed<R extends Result>(result: R | InputRequiredResult, method: string): R {
  if (isInputRequired(result, method)) {
    throw invalidResult(`The server answered ${method} with input_required, which only tools/call, prompts/get and resources/read may use`);
  }
  return result;
}

/** `result` when its `field` is an array. @throws McpClientError -32094 otherwise. */
export function expectArray<R extends Result>(result: R, field: string): R {
  if (!Array.isArray(result[field])) throw invalidResult(`The result has no ${field} array`, { field });
  return result;
}

/**
 * Every item of a paginated list, following `nextCursor` until a page has
 * none (an empty string is a cursor, not the end).
 * @throws McpClientError -32095 (`ListTooLong`) past `maxPages` pages or on a repeated cursor; -32094 for a malformed page.
 */
export async function listAll<T>(field: string, page: (cursor: string | undefined) => Promise<unknown>, maxPages: number): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) {
      throw new McpClientError(ClientErrorCode.ListTooLong, `The ${field} list has more than ${maxPages} pages`, {
        field,
        maxPages,
        items: items.length,
      });
    }
    const result = (await page(cursor)) as Record<string, unknown>;
    const list = result[field];
    if (!Array.isArray(list)) throw invalidResult(`A ${field} page has no ${field} array`);
    items.push(...(list as T[]));
    const next = result.nextCursor;
    if (next === undefined || next === null) return items;
    if (typeof next !== "string") throw invalidResult(`The nextCursor of a ${field} page is not a string`);
    if (seen.has(next))
      throw new McpClientError(
        ClientErrorCode.ListTooLong,
        `The server repeated the cursor ${clip(JSON.stringify(next), 80)} while listing ${field}`,
        { field, cursor: next },
      );
    seen.add(next);
    cursor = next;
  }
}
