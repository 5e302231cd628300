/**
 * Tasks on `x-mcp:traffic`: a task made by a call while someone subscribes
 * keeps where it came from (the call's transport, era, session, principal,
 * client and request id), and each of its status changes on this instance
 * is published with it. A task made while nobody subscribed is not followed.
 */
import type { RequestContext, TransportInfo } from "../context.js";
import type { TaskRecord } from "../task-store.js";
import type { RunScope } from "../scope.js";
import { publishTraffic, type TaskTraffic, trafficBase, transportOf } from "../traffic.js";
import type { TaskStart } from "./calls.js";

/** Where a task came from, as its traffic events say it. */
export type TaskOrigin = Omit<TaskTraffic, "seq" | "time" | "taskId" | "status" | "statusMessage">;

/** `start`, its task (once made) followed on `x-mcp:traffic`. Called only when `trafficObserved()`. */
export function watchedStart(start: TaskStart, transport: TransportInfo, ctx: RequestContext, scope: RunScope): TaskStart {
  const {
    seq: _seq,
    time: _time,
    ...base
  } = trafficBase(transportOf(transport), scope.binding, ctx.protocolVersion, ctx.auth, ctx.clientInfo);
  const origin: TaskOrigin = { ...base, era: scope.revision?.name, kind: "task", relatedRequestId: ctx.requestId };
  return {
    create: () =>
      start.create().then((local) => {
        local.traffic = origin;
        publishTaskStatus(origin, local.record);
        return local;
      }),
    handle: (local) => start.handle(local),
  };
}

/** Publishes `record`'s status as a task event of `origin`. */
export function publishTaskStatus(origin: TaskOrigin, record: TaskRecord): void {
  const base = trafficBase(origin.transport, undefined, undefined, undefined, undefined);
  publishTraffic({
    ...origin,
    seq: base.seq,
    time: base.time,
    taskId: record.taskId,
    status: record.status,
    statusMessage: record.statusMessage,
  });
}
