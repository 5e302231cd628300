/**
 * Node built-ins loaded on first use, and the event loop's turn end as the
 * process had it when this module loaded. The main entry also runs where
 * `node:` modules need a flag (workerd), so nothing here is imported
 * statically.
 */
import { createRequire } from "node:module";

const loaded = new Map<string, unknown>();

/**
 * A Node built-in module (`"node:crypto"`, `"node:async_hooks"`), loaded once.
 * Through `process.getBuiltinModule` where there is one (Node 20.16 and
 * later, Deno, Bun, and workerd with `nodejs_compat`, whose bundled modules
 * have no `import.meta.url` to resolve from), else `createRequire`.
 * @throws what `require` throws where the runtime has no such module.
 */
export function nodeBuiltin<T>(id: string): T {
  let module = loaded.get(id);
  if (module === undefined) {
    const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    module = builtin ? builtin(id) : createRequire(import.meta.url)(id);
    loaded.set(id, module);
  }
  return module as T;
}

/**
 * `setImmediate` as it was when the server was imported: answers held to
 * the end of the turn are written by the real one even after a test
 * installs fake timers (`vi.useFakeTimers()`, which fakes `setImmediate`),
 * as they were when they were written at once. `undefined` where the
 * runtime has none (workerd without `nodejs_compat`; only the node:http and
 * stdio transports use it).
 */
export const atTurnEnd: ((callback: () => void) => unknown) | undefined = (
  globalThis as { setImmediate?: (callback: () => void) => unknown }
).setImmediate;
