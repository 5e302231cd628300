/**
 * The `help` tool: the server's introspection surface, registered by the
 * server under the reserved name `help` as soon as an action tool is
 * registered (and removed with the last one).
 *
 * Three levels, chosen by the arguments:
 * - no arguments: the index, every tool with its description and, for an
 *   action tool, its action summaries (the same summaries as `tools/list`);
 * - `{tool}`: that tool complete: every action schema with its notes,
 *   related actions and examples (a plain tool shows its `inputSchema`);
 * - `{tool, action}`: one action complete, with the tool's
 *   `actionContext(action, ctx)` under `context` when it gives one.
 *
 * `action` without `tool` is an error, and an unknown target is an error
 * naming the valid ones, never a silent fallback to a broader answer. The
 * arguments themselves go through the same argument check as an action
 * tool's (`checkArguments`: names, then types) and unknown targets through
 * the same pointer helpers, so the two surfaces answer in one dialect.
 * Every answer, errors included, is published on `x-mcp:help`.
 */
import type { CallToolResult, Tool } from "@x/mcp-v2607";
import { toolHeaderParams } from "@x/mcp-v2607/wire";
import type { RequestContext } from "../context.js";
import type { RegisteredTool } from "../features/tools/define.js";
import type { JsonObject } from "../objects.js";
import { publishHelp } from "../telemetry.js";
import { Bound } from "./bound.js";
import { checkArguments, HELP_TOOL, helpPointer, refusal, unknownActionBody } from "./gates.js";
import type { ActionTool } from "./tool.js";

const ARGUMENTS = Object.freeze({ tool: "string", action: "string" } as const);

/** The `tools/list` definition of `help`. */
export const HELP_DEFINITION: Tool = Object.freeze({
  name: HELP_TOOL,
  title: "Help",
  description:
    "Describes this server's tools. No arguments: an index of every tool and its actions. " +
    "{tool}: that tool in full (every action's schema, notes, related actions and examples). " +
    "{tool, action}: one action in full, with its current context.",
  inputSchema: {
    type: "object",
    properties: {
      tool: { type: "string", description: "The tool to describe" },
      action: { type: "string", description: "One action of that tool (needs tool)" },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
}) as Tool;

function answer(body: unknown): CallToolResult {
  return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(body) }] };
}

async function respond(args: JsonObject, ctx: RequestContext, lookup: (name: string) => ActionTool | undefined): Promise<CallToolResult> {
  const refused = checkArguments(args, ARGUMENTS, helpPointer(), HELP_TOOL);
  if (refused) return refusal(refused);
  const tools = ctx.tools.filter((t) => t.name !== HELP_TOOL);
  const names = tools.map((t) => t.name).sort();
  const toolName = args.tool as string | undefined;
  const actionName = args.action as string | undefined;
  if (toolName === undefined) {
    if (actionName !== undefined) {
      return refusal({
        error: "missing_tool",
        message: `help with an action needs a tool too. Valid tools: ${names.join(", ")}.`,
        valid_tools: names,
        help: helpPointer(),
      });
    }
    return answer({
      tools: tools.map((t) => {
        const entry: JsonObject = { tool: t.name };
        if (t.description !== undefined) entry.description = t.description;
        const actionTool = lookup(t.name);
        if (actionTool) entry.actions = actionTool.summaries;
        return entry;
      }),
    });
  }
  const definition = tools.find((t) => t.name === toolName);
  if (!definition) {
    return refusal({
      error: "unknown_tool",
      message: `There is no tool ${JSON.stringify(Bound.echo(toolName))}. Valid tools: ${names.join(", ")}.`,
      tool: Bound.echo(toolName),
      valid_tools: names,
      help: helpPointer(),
    });
  }
  const actionTool = lookup(toolName);
  if (actionName === undefined) {
    if (!actionTool) {
      const plain: JsonObject = { tool: definition.name };
      if (definition.description !== undefined) plain.description = definition.description;
      plain.inputSchema = definition.inputSchema;
      if (definition.outputSchema !== undefined) plain.outputSchema = definition.outputSchema;
      return answer(plain);
    }
    const actions: JsonObject = {};
    for (const name of actionTool.actionNames) actions[name] = actionTool.renderAction(name);
    const level: JsonObject = { tool: actionTool.name };
    if (actionTool.title !== undefined) level.title = actionTool.title;
    level.description = actionTool.description;
    level.actions = actions;
    return answer(level);
  }
  const rendered = actionTool?.renderAction(actionName);
  if (!actionTool || !rendered) return refusal(unknownActionBody(toolName, actionName, actionTool?.actionNames ?? []));
  const level: JsonObject = { tool: actionTool.name, action: actionName, ...rendered };
  const context = await actionTool.contextFor(actionName, ctx);
  if (context !== undefined) level.context = context;
  return answer(level);
}

/**
 * Builds the registered `help` tool. `lookup` finds the action tool of a
 * name (plain tools have none); the list of tools is read from `ctx.tools`.
 */
export function createHelpTool(lookup: (name: string) => ActionTool | undefined): RegisteredTool {
  return {
    name: HELP_TOOL,
    definition: HELP_DEFINITION,
    handler: async (args: JsonObject, ctx: RequestContext) => {
      const tool = typeof args.tool === "string" ? args.tool : undefined;
      const action = typeof args.action === "string" ? args.action : undefined;
      const level = action !== undefined ? "action" : tool !== undefined ? "tool" : "index";
      let isError = true;
      try {
        const result = await respond(args, ctx, lookup);
        isError = result.isError === true;
        return result;
      } finally {
        publishHelp({ tool, action, level, isError, requestId: ctx.requestId });
      }
    },
    checkInput: () => [],
    checkOutput: undefined,
    requiredClientCapabilities: undefined,
    headerParams: [],
    actionOf: (args) => (typeof args.action === "string" ? args.action : undefined),
  };
}

/** Builds the registered form of an action tool, as the server holds it. */
export function registeredActionTool(tool: ActionTool): RegisteredTool {
  const definition = tool.describe();
  const headers = toolHeaderParams(definition);
  return {
    name: tool.name,
    definition,
    handler: (args: JsonObject, ctx: RequestContext) => tool.run(args, ctx),
    // The dispatch gates check the arguments; the generic inputSchema check would pre-empt their answers.
    checkInput: () => [],
    checkOutput: tool.checkOutput,
    requiredClientCapabilities: undefined,
    // An action tool's schema is built, not given: one that breaks a rule mirrors no headers.
    headerParams: headers.ok ? headers.params : [],
    timeoutMs: tool.timeoutMs,
    actionOf: (args) => (typeof args.action === "string" ? args.action : undefined),
  };
}
