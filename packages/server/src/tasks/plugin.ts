/**
 * The tasks plug-in (`tasks()`, on `@x/server/tasks`): what a server gets
 * when it is built with `tasks: tasks(options)`. It installs, through the
 * server's internal parts, one {@link TaskRunner} (the tasks' state, in the
 * store) and each revision's wire: the tasks extension's methods on
 * 2026-07-28 and its capability in `server/discover` (`feature.ts`), the
 * tasks of 2025-11-25 on `initialize`-era sessions and their `tasks`
 * capability in `InitializeResult` (`legacy.ts`), the say in tool calls
 * (`calls.ts`), the task ids of `subscriptions/listen`, and the bus topics
 * of task statuses and controls. Nothing in the core imports this folder.
 */
import { type DetailedTask, TaskMethod } from "@x/mcp-v2607/tasks";
import { BusTopic } from "../bus.js";
import { createContext, type RequestContext } from "../context.js";
import type { TasksPlugin } from "../options.js";
import { revision2607 } from "../revisions/2026-07-28/index.js";
import { revision2511 } from "../revisions/initialize/index.js";
import { isObject } from "../objects.js";
import type { Opening } from "../revisions/plugin.js";
import type { Revision } from "../revisions/revision.js";
import { type McpServer, partsOf } from "../server.js";
import type { TaskStore } from "../task-store.js";
import { type TaskWire, WiredCalls } from "./calls.js";
import { TasksFeature } from "./feature.js";
import { LegacyTasks } from "./legacy.js";
import { taskLimits } from "./limits.js";
import { TaskRunner } from "./runner.js";
import { MemoryTaskStore } from "./store.js";

/** Options of the tasks plug-in (`tasks(options)`). Times in milliseconds. */
export interface TasksOptions {
  /**
   * Where tasks are kept. Default: a {@link MemoryTaskStore} of the server's
   * own (10 000 tasks at most), one per server the plug-in is given to.
   */
  store?: TaskStore;
  /**
   * A task's time to live from its creation: past it the task's run is
   * aborted (it ends `failed`) and the store may forget it, result included.
   * `null`: unlimited. At most 2 147 483 647. Default 3 600 000 (one hour).
   */
  ttlMs?: number | null;
  /** The polling interval suggested to clients (`pollIntervalMs`). Default 1000. */
  pollIntervalMs?: number;
  /**
   * Most tasks one principal has running (`working` or `input_required`) at
   * once; past it a call that would make a task is refused with -32000.
   * Without a principal (no `auth`, no `principal` option) every client
   * shares one allowance. Default 100.
   */
  maxTasksPerOwner?: number;
  /**
   * How long a task's worker counts as alive without renewing its lease
   * (renewed every third of it while it runs). With a store shared by
   * several instances, a task whose instance died is marked `failed` by the
   * next reader once its lease has run out. Default 15 000, at least 1000.
   */
  leaseMs?: number;
}

/**
 * The tasks plug-in, to pass as `ServerOptions.tasks`: tools registered with
 * `taskSupport` then run as tasks of the tasks extension
 * (`io.modelcontextprotocol/tasks`) when a 2026-07-28 request declares it,
 * and as tasks of revision 2025-11-25 on `initialize`-era sessions when the
 * call carries `params.task`. A server built without it carries none of this
 * code, serves no `tasks/*` method, announces no tasks, and refuses a tool
 * with `taskSupport` (TypeError at `registerTool`).
 *
 * @example
 * import { McpServer } from "@x/server";
 * import { tasks } from "@x/server/tasks";
 * const server = new McpServer({ name: "reports", version: "1.0.0" }, { tasks: tasks({ ttlMs: 600_000 }) });
 * server.registerTool("report", { taskSupport: "optional" }, async (_args, ctx) => build(ctx.signal));
 *
 * @throws RangeError (now, not when a server is built) for an option out of range: `ttlMs` not a positive
 *   integer up to 2 147 483 647 or `null`, `pollIntervalMs` or `maxTasksPerOwner` not a positive integer,
 *   `leaseMs` not an integer from 1000 to 2 147 483 647.
 */
export function tasks(options: TasksOptions = {}): TasksPlugin {
  const limits = taskLimits(options);
  const store = options.store;
  return {
    install(server: McpServer): TaskStore {
      const parts = partsOf(server);
      const runner = new TaskRunner({
        store: store ?? new MemoryTaskStore(),
        bus: parts.bus,
        limits,
        info: server.info,
        report: parts.report,
      });
      const { tools, dispatcher, owner } = parts;
      const offered = () => tools.offersTasks;
      const wires = new Map<Revision, TaskWire>();
      // 2026-07-28: the extension's methods, only on that revision's requests.
      const extension = new TasksFeature(runner, offered, owner);
      dispatcher.contribute(revision2607, Object.entries(extension.methods));
      parts.discover((caps) => extension.capabilities(caps));
      parts.listen.useTasks(extension);
      wires.set(revision2607, extension);
      // The initialize era, where the server's class plugs it in: the tasks of 2025-11-25 join its sessions.
      const era = parts.plugged.find((plugged) => plugged.revision === revision2511);
      if (era !== undefined) {
        const legacy = new LegacyTasks(runner, owner, offered, { keys: server.keys, pageSize: parts.pageSize });
        era.extend({
          methods: legacy.methods,
          capabilities: (opening) => {
            const offeredCaps = legacy.capabilities(opening !== undefined && identifies(owner, opening));
            return offeredCaps === undefined ? undefined : { tasks: offeredCaps };
          },
        });
        wires.set(revision2511, legacy);
      }
      tools.useTasks(new WiredCalls(runner, wires));
      parts.follow(BusTopic.TaskStatus, (message) => {
        const task = message.task;
        if (typeof message.owner !== "string" || !isObject(task) || typeof task.taskId !== "string") return;
        runner.status(task as unknown as DetailedTask);
        parts.listen.notifyTask(message.owner, task.taskId, TaskMethod.Status, task);
      });
      parts.follow(BusTopic.TaskControl, (message) => runner.control(message));
      parts.onClose(() => runner.close());
      return runner.store;
    },
  };
}

/** Whether the client opening a session has a principal: the owner its tasks would have. */
function identifies(owner: (ctx: RequestContext) => string, opening: Opening): boolean {
  const ctx = createContext({
    requestId: opening.id,
    method: "initialize",
    meta: {} as RequestContext["meta"],
    protocolVersion: opening.protocolVersion,
    clientCapabilities: opening.clientCapabilities,
    clientInfo: opening.clientInfo,
    transport: opening.transport,
    loggingEnabled: false,
    asks: false,
  });
  try {
    return owner(ctx) !== "";
  } catch {
    return false;
  }
}
