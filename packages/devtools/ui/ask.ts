// Elicitations asked of the in-process client, answered in the page: one dialog at a time, in order.
import { answerAsk } from "./api.js";
import { h } from "./h.js";
import { schemaForm } from "./try/form.js";
import type { Ask } from "./types.js";

export function asks(): { el: HTMLDialogElement; ask(ask: Ask): void; done(id: string): void } {
  const queue: Ask[] = [];
  const dialog = h("dialog", {
    "data-testid": "ask-dialog",
    role: "dialog",
    "aria-modal": "true",
    "aria-labelledby": "ask-title",
    class: "ask",
  });
  let current: Ask | undefined;

  const answer = async (action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => {
    const ask = current;
    if (!ask) return;
    current = undefined;
    if (dialog.open) dialog.close();
    await answerAsk(ask.id, action, content as never).catch(() => undefined);
    next();
  };

  function next(): void {
    if (current || queue.length === 0) return;
    current = queue.shift() as Ask;
    const form = schemaForm(current.requestedSchema, (value) => void answer("accept", value), "ask-form");
    const button = (testid: string, text: string, onclick: () => void, cls = "") =>
      h("button", { type: "button", "data-testid": testid, class: cls, onclick }, text);
    dialog.replaceChildren(
      h("h2", { id: "ask-title" }, current.tool ? `${current.tool} asks` : "The server asks"),
      h("p", { class: "message", "data-testid": "ask-message" }, current.message),
      form.el,
      h(
        "div",
        { class: "actions" },
        button("ask-accept", "Accept", () => form.el.requestSubmit(), "primary"),
        button("ask-decline", "Decline", () => void answer("decline")),
        button("ask-cancel", "Cancel", () => void answer("cancel")),
      ),
    );
    dialog.showModal();
    (dialog.querySelector<HTMLElement>("[data-field]") ?? dialog.querySelector<HTMLElement>("[data-testid=ask-accept]"))?.focus();
  }

  // Escape closes the dialog as a cancel.
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    void answer("cancel");
  });

  // Closed some other way (a form method=dialog, the browser): still an answer, so the call does not wait forever.
  dialog.addEventListener("close", () => void answer("cancel"));

  return {
    el: dialog,
    ask(ask) {
      if (current?.id === ask.id || queue.some((q) => q.id === ask.id)) return;
      queue.push(ask);
      next();
    },
    done(id) {
      const i = queue.findIndex((q) => q.id === id);
      if (i >= 0) queue.splice(i, 1);
      if (current?.id === id) {
        current = undefined;
        if (dialog.open) dialog.close();
        next();
      }
    },
  };
}
