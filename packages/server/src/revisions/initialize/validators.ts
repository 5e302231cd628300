/**
 * The checks of revision 2025-11-25 that the `initialize` era applies to
 * untrusted input, compiled from its schema documents when this module
 * loads. `era.ts` loads it on the first `initialize`.
 */
import type * as Types from "@x/mcp-v2511";
import * as schemas from "@x/mcp-v2511/schemas";
import { compileDocument } from "../../documents.js";

/** `notifications/cancelled` params (spec 2025-11-25: basic/utilities/cancellation). */
export const CancelledNotificationParams = compileDocument<Types.CancelledNotificationParams>(schemas.CancelledNotificationParams);
/** An answer to `sampling/createMessage` (client/sampling). */
export const CreateMessageResult = compileDocument<Types.CreateMessageResult>(schemas.CreateMessageResult);
/** An answer to `elicitation/create` (client/elicitation). */
export const ElicitResult = compileDocument<Types.ElicitResult>(schemas.ElicitResult);
/** `initialize` params (basic/lifecycle). */
export const InitializeRequestParams = compileDocument<Types.InitializeRequestParams>(schemas.InitializeRequestParams);
/** An answer to `roots/list` (client/roots). */
export const ListRootsResult = compileDocument<Types.ListRootsResult>(schemas.ListRootsResult);
/** `logging/setLevel` params (server/utilities/logging). */
export const SetLevelRequestParams = compileDocument<Types.SetLevelRequestParams>(schemas.SetLevelRequestParams);
/** `resources/subscribe` params (server/resources). */
export const SubscribeRequestParams = compileDocument<Types.SubscribeRequestParams>(schemas.SubscribeRequestParams);
/** `resources/unsubscribe` params (server/resources). */
export const UnsubscribeRequestParams = compileDocument<Types.UnsubscribeRequestParams>(schemas.UnsubscribeRequestParams);
