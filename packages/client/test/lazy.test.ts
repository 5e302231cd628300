import { describe, expect, it } from "vitest";
import { loadOnce } from "../src/lazy.js";

describe("loadOnce", () => {
  it("loads once for any number of callers, and now() gives the value only after it resolved", async () => {
    let calls = 0;
    const lazy = loadOnce(async () => {
      calls++;
      return { made: calls };
    });
    expect(lazy.now()).toBeUndefined();
    const [a, b] = await Promise.all([lazy.get(), lazy.get()]);
    expect(a).toBe(b);
    expect(await lazy.get()).toBe(a);
    expect(lazy.now()).toBe(a);
    expect(calls).toBe(1);
  });

  it("does not keep a failure: the next get() loads again", async () => {
    let calls = 0;
    const lazy = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error("first load fails");
      return "second";
    });
    await expect(lazy.get()).rejects.toThrow("first load fails");
    expect(lazy.now()).toBeUndefined();
    expect(await lazy.get()).toBe("second");
    expect(calls).toBe(2);
  });
});
