/**
 * A prompt is a cancel point (DESIGN.md 5.14): Ctrl-C cancels it at once
 * with exit 130, nothing from it is written and what was saved before it
 * stays; end of input at a yes/no question is No.
 */

import assert from "node:assert/strict";
import { InterruptedError } from "../lib/core/errors.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";
import { askYesNo, createLinePrompter, createScriptedPrompter } from "../lib/ui/prompt.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { HAVE_PTY } from "./helpers/real_claude.ts";
import { typeInTerminal } from "./helpers/terminal_session.ts";
import { seedSessions } from "./helpers/seed.ts";

function keys(text: string) {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return {
    readSync(buffer: Uint8Array): number | null {
      if (at >= bytes.length) return null;
      buffer[0] = bytes[at++];
      return 1;
    },
    consumed: () => at,
  };
}

function fakeTerminal() {
  const modes: boolean[] = [];
  const echoed: number[] = [];
  return {
    modes,
    echoed: () => new TextDecoder().decode(new Uint8Array(echoed)),
    setRaw: (raw: boolean) => void modes.push(raw),
    echo: (bytes: Uint8Array) => void echoed.push(...bytes),
  };
}

Deno.test("at a terminal, Ctrl-C cancels the prompt and leaves the next line unread", () => {
  const input = keys("ab\x03git status\n");
  const terminal = fakeTerminal();
  const prompter = createLinePrompter(input, createMemoryOutput(), { terminal });
  assert.throws(() => prompter.ask("  Describe this session: "), InterruptedError);
  assert.equal(input.consumed(), 3, "stopped at the Ctrl-C");
  assert.deepEqual(terminal.modes, [true, false], "the terminal is back in line mode");
});

Deno.test("at a terminal, typing is edited and echoed as line mode did", () => {
  const terminal = fakeTerminal();
  const prompter = createLinePrompter(keys("nx\x7fame\x1b[Dé\x7f!\r"), createMemoryOutput(), {
    terminal,
  });
  assert.equal(prompter.ask("? "), "name!");
  assert.equal(terminal.echoed(), "nx\b \bameé\b \b!\r\n");
  const cleared = createLinePrompter(keys("oops\x15ok\n"), createMemoryOutput(), { terminal });
  assert.equal(cleared.ask("? "), "ok");
});

Deno.test("Ctrl-D on an empty line is end of input; a yes/no question then means No", () => {
  const terminal = fakeTerminal();
  const prompter = createLinePrompter(keys("\x04"), createMemoryOutput(), { terminal });
  assert.equal(askYesNo(prompter, "Resume? [Y/n]: ", { defaultYes: true }), false);
  assert.equal(askYesNo(createScriptedPrompter([""]), "? [Y/n]", { defaultYes: true }), true);
  assert.equal(askYesNo(createScriptedPrompter([]), "? [Y/n]", { defaultYes: true }), false);
  assert.equal(askYesNo(createScriptedPrompter(["yes"]), "? [y/N]", { defaultYes: false }), true);
});

Deno.test({
  name: "Ctrl-C at 'Describe this session' exits 130 and keeps the row saved before it",
  ignore: !HAVE_PTY,
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      world.claudeScenario({ messages: ["hello"] });
      const run = await typeInTerminal(world, ["new", "--", "hello"], {
        steps: [
          { waitFor: /Describe this session/, keys: "\x03" },
          { waitFor: /\n/, keys: "git status\r" },
        ],
      });
      assert.equal(run.code, 130, run.screen);
      const [row] = world.sessions();
      assert.equal(row.desc, "Project", "the folder default saved before the question stays");
    }),
});

Deno.test("end of input at 'Resume this session? [Y/n]' does not resume it, nor start another", () =>
  inWorldWithoutCmv(async (world) => {
    const { main } = seedSessions(world, [{ desc: "Saved" }]);
    world.claudeScenario({ messages: ["hello"] });
    const before = Deno.readFileSync(world.paths.registryFile);
    const run = await world.run(["new"], { stdin: "" });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stderr, /No answer: no session started/);
    assert.deepEqual(world.launches(), [], "no claude at all");
    assert.deepEqual(Deno.readFileSync(world.paths.registryFile), before);
    assert.ok(world.sessions().some((s) => s.guid === main[0].guid), "the saved row stays");
  }));

Deno.test("end of input at the new session's name starts nothing; Enter takes the default", () =>
  inWorldWithoutCmv(async (world) => {
    world.claudeScenario({ messages: ["hello"] });
    const ended = await world.run(["new"], { stdin: "" });
    assert.equal(ended.code, 0, ended.stdout + ended.stderr);
    assert.deepEqual(world.launches(), []);
    assert.deepEqual(world.sessions(), []);
    const entered = await world.run(["new"], { stdin: "\n" });
    assert.equal(entered.code, 0, entered.stdout + entered.stderr);
    assert.equal(world.launches().length, 1);
    assert.equal(world.sessions().length, 1);
  }));

Deno.test("a terminal that refuses raw mode is read as lines", () => {
  const terminal = {
    setRaw: () => {
      throw new Error("not a terminal");
    },
    echo: () => {},
  };
  const prompter = createLinePrompter(keys("name\n"), createMemoryOutput(), { terminal });
  assert.equal(prompter.ask("? "), "name");
});
