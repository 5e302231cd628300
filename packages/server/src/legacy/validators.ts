/**
 * The generated validators of revision 2025-11-25 that the `initialize` era
 * checks untrusted input with, imported by name so that a bundler keeps only
 * these. `era.ts` loads this module on the first `initialize`.
 */
export {
  CancelledNotificationParams,
  CreateMessageResult,
  ElicitResult,
  InitializeRequestParams,
  ListRootsResult,
  SetLevelRequestParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from "@x/mcp-v2511/validators";
