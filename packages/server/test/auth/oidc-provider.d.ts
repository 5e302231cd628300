// The few parts of oidc-provider (which ships no types) the tests use.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    static errors: { InvalidTarget: new () => Error };
  }
}
