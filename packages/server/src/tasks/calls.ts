/**
 * How a `tools/call` becomes a task: the {@link TaskCalls} the tasks plug-in
 * installs on the tools feature. Each revision the plug-in serves has its
 * wire (a {@link TaskWire}: the tasks extension on 2026-07-28, the tasks of
 * 2025-11-25 on `initialize`-era sessions), which decides from the request
 * and the tool's `taskSupport` whether the call becomes a task and writes the
 * handle it is answered with; the run itself, in the task, is the same for
 * every wire.
 */
import { trafficObserved } from "../traffic.js";
import { watchedStart } from "./traffic.js";
import type { Tool } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { RequestContext, TransportInfo } from "../context.js";
import { McpError } from "../errors.js";
import type { RegisteredTool } from "../features/tools/define.js";
import type { RunCall, TaskCalls } from "../features/tools/index.js";
import type { ToolRunResult } from "../features/tools/run.js";
import type { JsonObject } from "../objects.js";
import type { Revision } from "../revisions/revision.js";
import { InputRequiredSignal, runEnded } from "../route.js";
import { joinTask, type RunScope } from "../scope.js";
import type { LocalTask, TaskRunner } from "./runner.js";

/** How a call becomes a task in one revision: the task made (stored), and the answer that hands it to the client. */
export interface TaskStart {
  create(): Promise<LocalTask>;
  handle(local: LocalTask): JsonObject;
}

/** The tasks of one revision's wire, as a call meets them. */
export interface TaskWire {
  /**
   * How this call becomes a task, or `undefined` for a plain call.
   * @throws McpError refusing a call that must be a task and was not asked as one, or the reverse.
   */
  start(tool: RegisteredTool, params: JsonObject, ctx: RequestContext, scope: RunScope): TaskStart | undefined;
  /** How the revision lists a tool that allows tasks; absent: as published. */
  listed?(definition: Tool, taskSupport: "optional" | "required"): Tool;
}

/** The tasks plug-in's say in calls: each request's revision's wire, and one runner. */
export class WiredCalls implements TaskCalls {
  readonly #runner: TaskRunner;
  readonly #wires: ReadonlyMap<Revision, TaskWire>;

  constructor(runner: TaskRunner, wires: ReadonlyMap<Revision, TaskWire>) {
    this.#runner = runner;
    this.#wires = wires;
  }

  call(
    tool: RegisteredTool,
    params: JsonObject,
    ctx: RequestContext,
    scope: RunScope,
    transport: TransportInfo,
    run: RunCall,
  ): Promise<ToolRunResult> | undefined {
    const wire = scope.revision === undefined ? undefined : this.#wires.get(scope.revision);
    let start: TaskStart | undefined;
    if (wire !== undefined) start = wire.start(tool, params, ctx, scope);
    else if (tool.taskSupport === "required") {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${tool.name} runs only as a task, which requests of this revision cannot ask for`,
        {
          name: tool.name,
        },
      );
    }
    if (start === undefined) return undefined;
    if (trafficObserved()) start = watchedStart(start, transport, ctx, scope);
    return tool.taskStart === "deferred" ? this.#deferred(scope, start, run) : this.#immediate(scope, start, run);
  }

  listed(definition: Tool, taskSupport: "optional" | "required", revision: Revision | undefined): Tool {
    const wire = revision === undefined ? undefined : this.#wires.get(revision);
    return wire?.listed === undefined ? definition : wire.listed(definition, taskSupport);
  }

  /** The whole handler in a task: the handle is answered once the task is stored, the run goes on. */
  async #immediate(scope: RunScope, start: TaskStart, run: RunCall): Promise<ToolRunResult> {
    const local = await start.create();
    joinTask(scope, local);
    let outcome: Promise<ToolRunResult>;
    try {
      // No call limit in a task: its time to live bounds it.
      outcome = Promise.resolve(run(false));
    } catch (error) {
      outcome = Promise.reject(error);
    }
    this.#runner.finish(local, outcome);
    // A task handle in lieu of the tool's result (the extension's polymorphic result; the initialize era's CreateTaskResult).
    return start.handle(local) as unknown as ToolRunResult;
  }

  /**
   * The handler runs in the call until it calls `ctx.startTask()`; from then
   * on in the task. A run that ends while its task is being made (a
   * `startTask()` not awaited) ends the task, not the call.
   */
  #deferred(scope: RunScope, start: TaskStart, run: RunCall): Promise<ToolRunResult> {
    const runner = this.#runner;
    return new Promise((resolve, reject) => {
      let starting: Promise<LocalTask> | undefined;
      scope.startTask = () => {
        if (starting) return Promise.reject(new Error("ctx.startTask: this call already started its task"));
        // A round that ended on an unanswered ask is answered input_required: no task may start behind it.
        if (runEnded(scope)) return Promise.reject(new InputRequiredSignal());
        starting = start.create().then((local) => {
          joinTask(scope, local);
          scope.limit?.follow(local.signal);
          resolve(start.handle(local) as unknown as ToolRunResult);
          return local;
        });
        const started = starting.then(() => true);
        // Awaited by the handler, or not: a refusal must not become an unhandled rejection.
        started.catch(() => {});
        return started;
      };
      let running: ToolRunResult | Promise<ToolRunResult>;
      try {
        running = run(true);
      } catch (error) {
        reject(error);
        return;
      }
      const settle = (outcome: Promise<ToolRunResult>) => {
        if (!starting) {
          outcome.then(resolve, reject);
          return;
        }
        starting.then(
          (local) => runner.finish(local, outcome),
          // The task could not be made: the call answers with the run's own outcome, else that refusal.
          (refusal) => outcome.then(resolve, () => reject(refusal)),
        );
      };
      Promise.resolve(running).then(
        (result) => settle(Promise.resolve(result)),
        (error) => settle(Promise.reject(error)),
      );
    });
  }
}
