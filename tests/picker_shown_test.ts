import assert from "node:assert/strict";
import { createTestContext } from "./helpers/test_context.ts";
import { runPicker } from "../lib/app/picker/picker.ts";
import { resolveSession } from "../lib/app/session/resolve_session.ts";
import { rememberShown } from "../lib/app/shown_list.ts";
import type { PickerTerminal } from "../lib/ui/picker/screen.ts";

const A = "0f3a9c1e-1111-4000-8000-000000000001";
const B = "0f3a9c1e-2222-4000-8000-000000000002";
const C = "7c000000-3333-4000-8000-000000000003";

/** A terminal whose input ends at once: the picker draws its first frame and quits. */
function closedTerminal(): PickerTerminal {
  return {
    setRaw() {},
    write() {},
    read: () => Promise.resolve(null),
    size: () => ({ columns: 100, lines: 30 }),
    onResize: () => () => {},
    onEnding: () => () => {},
    exit: () => {
      throw new Error("exit");
    },
  };
}

// Issue 33.3: the picker's numbers are what this terminal was shown, as the list's are.
Deno.test("the picker's rows are what a number typed later is checked against", async () => {
  const t = createTestContext({ interactive: false });
  try {
    const names: Record<string, string> = { [A]: "A", [B]: "B", [C]: "C" };
    const writeRows = (guids: string[]) =>
      Deno.writeTextFileSync(
        t.ctx.paths.registryFile,
        guids.map((guid) => `${guid}|/p|${names[guid]}|\n`).join(""),
      );
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    writeRows([A, B, C]);
    rememberShown(t.ctx, [[1, A], [2, B], [3, C]]);
    // Another window: C ended and moved up; then the picker shows the list as it is now.
    writeRows([A, C, B]);
    const settings = { machineName: "m", permissionArgs: [] };
    assert.equal(
      await runPicker(t.ctx, { settings, terminal: closedTerminal(), colour: false }),
      0,
    );
    // #2 was shown as C by the picker: no question, no refusal.
    assert.equal(resolveSession(t.ctx, "2", { verb: "resume" }).session.guid, C);
    assert.equal(resolveSession(t.ctx, "3", { verb: "resume" }).session.guid, B);
  } finally {
    t.cleanup();
  }
});
