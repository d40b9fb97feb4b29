/**
 * End to end, in a real terminal (tmux): the picker filters as the user
 * types, Enter resumes the fake claude with the highlighted session's id, a
 * typed list number and Enter resumes that number, arrows scroll the list,
 * Esc, Ctrl-C and Ctrl-D leave with nothing launched and the terminal as it
 * was, a name's escape sequence shows as text and clears nothing, and
 * `--numbers` keeps the numbered menu (issue 34).
 */

import assert from "node:assert/strict";
import {
  exitOf,
  openPicker,
  PICKER_IGNORED,
  pickerTest,
  resumed,
} from "./helpers/picker_terminal.ts";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { openTmux } from "./helpers/tmux.ts";
import { seedSessions } from "./helpers/seed.ts";
import { displayWidth } from "../lib/ui/text_width.ts";
import { transcriptPathFor } from "../lib/core/paths.ts";

pickerTest("typing filters by name and Enter resumes the highlighted session", async (world) => {
  const { main } = seedSessions(world, [
    { desc: "Alpha billing" },
    { desc: "Beta docs" },
    { desc: "Gamma release" },
  ]);
  world.claudeScenario({ messages: ["carry on"], requireTty: true });
  const terminal = await openPicker(world, ["list"]);
  try {
    await terminal.keys(["beta"], { literal: true });
    const screen = await terminal.waitFor(/1\/3/);
    assert.match(screen, />\s+2\. Beta docs/);
    assert.doesNotMatch(screen, /Alpha billing|Gamma release/);
    await terminal.keys(["Enter"]);
    assert.equal(await exitOf(terminal), 0, await terminal.screen());
    assert.deepEqual(resumed(world), [main[1].guid]);
    // claude got the terminal, out of the picker's raw mode and alternate screen.
    assert.deepEqual(world.launches()[0].tty, { stdin: true, stdout: true });
    assert.equal(world.sessions()[0].guid, main[1].guid, "the resumed session moved to #1");
  } finally {
    await terminal.close();
  }
});

pickerTest(
  "bare claudecm opens it; a typed list number and Enter resume that number",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "One" }, { desc: "Two" }, { desc: "Three" }]);
    const terminal = await openPicker(world, []);
    try {
      await terminal.keys(["3", "Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.deepEqual(resumed(world), [main[2].guid]);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest("arrows move the highlight and the list scrolls to keep it shown", async (world) => {
  const names = Array.from({ length: 40 }, (_, i) => ({ desc: `Session ${i + 1}` }));
  const { main } = seedSessions(world, names);
  const terminal = await openPicker(world, ["list"], { columns: 60, rows: 10 });
  try {
    for (let i = 0; i < 15; i++) await terminal.keys(["Down"]);
    let screen = await terminal.waitFor(/>\s+16\. Session 16/);
    assert.doesNotMatch(screen, /\b1\. Session 1\b/, "row 1 scrolled off");
    await terminal.keys(["Up"]);
    screen = await terminal.waitFor(/>\s+15\. Session 15/);
    await terminal.keys(["End"]);
    await terminal.waitFor(/>\s+40\. Session 40/);
    await terminal.keys(["PageUp"]);
    await terminal.waitFor(/>\s+32\. Session 32/);
    await terminal.keys(["Home"]);
    await terminal.waitFor(/>\s+1\. Session 1\b/);
    await terminal.keys(["C-n", "C-n", "Enter"]);
    assert.equal(await exitOf(terminal), 0, await terminal.screen());
    assert.deepEqual(resumed(world), [main[2].guid]);
  } finally {
    await terminal.close();
  }
});

for (const [key, label] of [["Escape", "Esc"], ["C-c", "Ctrl-C"], ["C-d", "Ctrl-D"]]) {
  pickerTest(
    `${label} leaves with exit 0, nothing launched, the screen as it was`,
    async (world) => {
      seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
      const terminal = await openPicker(world, ["list"], { columns: 80, rows: 12 });
      try {
        await terminal.keys([key]);
        assert.equal(await exitOf(terminal), 0, await terminal.screen());
        assert.deepEqual(world.launches(), []);
        // The alternate screen is left: the picker's frame is gone from the terminal.
        const screen = await terminal.screen();
        assert.doesNotMatch(screen, /Enter resume|Alpha/, screen);
      } finally {
        await terminal.close();
      }
    },
  );
}

pickerTest(
  "a name holding a clear-screen sequence shows it as text and wipes nothing",
  async (world) => {
    seedSessions(world, [{ desc: "Evil\x1b[2J\x1b[Hname" }, { desc: "Plain after" }]);
    const terminal = await openPicker(world, ["list"]);
    try {
      const screen = await terminal.screen();
      assert.match(screen, /Evil\^\[\[2J\^\[\[Hname/, screen);
      assert.match(screen, /2\. Plain after/);
      assert.match(screen.split("\n")[0], /^> /, "the query line is still on top");
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "what was said finds a session whose name does not match, with its words",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const terminal = await openPicker(world, ["list"], { columns: 120, rows: 20 });
    try {
      // The seeded transcripts say "Work on <name>": "beta" matches #2 by name, "work" both by content.
      await terminal.keys(["work on bet"], { literal: true });
      const screen = await terminal.waitFor(/1\/2/);
      assert.match(screen, />\s+2\. Beta .*Work on Beta/);
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.deepEqual(resumed(world), [main[1].guid]);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest("list --numbers shows the numbered menu", async (world) => {
  seedSessions(world, [{ desc: "Alpha" }]);
  const terminal = await openTmux(["list", "--numbers"], { env: world.env, cwd: world.project });
  try {
    const screen = await terminal.waitFor(/Pick a session/);
    assert.match(screen, /=== Saved Sessions ===/);
    assert.match(screen, /E\. Edit this list/);
    await terminal.keys(["Enter"]);
    assert.equal(await exitOf(terminal), 0);
  } finally {
    await terminal.close();
  }
});

pickerTest(
  '"menu": "numbers" in config.json keeps the numbered menu for bare claudecm',
  async (world) => {
    seedSessions(world, [{ desc: "Alpha" }]);
    Deno.writeTextFileSync(`${world.paths.cmHome}/config.json`, '{"menu": "numbers"}\n');
    const terminal = await openTmux([], { env: world.env, cwd: world.project });
    try {
      await terminal.waitFor(/Pick a session/);
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "Ctrl-R renames the highlighted session through the edit list's question",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["Down", "C-r"]);
      await terminal.waitFor(/New name for 'Beta'/);
      await terminal.keys(["Beta renamed"], { literal: true });
      await terminal.keys(["Enter"]);
      // Back on the renamed session (picker_actions_e2e_test.ts), not on #1.
      await terminal.waitFor(/ 1\. Alpha[\s\S]*^>\s+2\. Beta renamed/m);
      assert.equal(world.sessions()[1].desc, "Beta renamed");
      assert.equal(world.sessions()[1].guid, main[1].guid);
      await terminal.keys(["C-a"]);
      const screen = await terminal.waitFor(/1\/1/);
      assert.doesNotMatch(screen, /Beta/, "Ctrl-A archived the highlighted #2");
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha"]);
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
      assert.deepEqual(world.launches(), []);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "Ctrl-G shows all of claude's sessions; picking one not saved adds and resumes it",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "Saved" }, { desc: "Only claude has it" }]);
    // The registry keeps only the first: the second is a transcript claude wrote, not in the list.
    Deno.writeTextFileSync(world.paths.registryFile, `${main[0].guid}|${main[0].dir}|Saved|\n`);
    const terminal = await openPicker(world, ["list"]);
    try {
      assert.doesNotMatch(await terminal.screen(), /Only claude/);
      await terminal.keys(["C-g"]);
      await terminal.waitFor(/2\+ \S/);
      // A row action on a session claude has and the list has not: said, not silently nothing.
      await terminal.keys(["Down", "C-r"]);
      await terminal.waitFor(/rename is for a saved session: Enter adds this one/);
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.deepEqual(resumed(world), [main[1].guid]);
      assert.ok(world.sessions().some((s) => s.guid === main[1].guid), "it is in the list now");
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "at 40x10 it works, wide names take their width, and a resize redraws",
  async (world) => {
    const { main } = seedSessions(world, [
      { desc: "日本語のセッション名前" },
      { desc: "Emoji 😀 name" },
      ...Array.from({ length: 20 }, (_, i) => ({ desc: `Session ${i + 3}` })),
    ]);
    const terminal = await openPicker(world, ["list"], { columns: 40, rows: 10 });
    try {
      let screen = await terminal.waitFor(/^>\s+1\. 日本語[\s\S]*Enter resume/m);
      const lines = screen.split("\n");
      assert.match(lines[0], /^> _ +22\/22/, screen);
      assert.match(lines[1], /^>\s+1\. 日本語/);
      assert.match(lines[2], /2\. Emoji 😀 name/);
      // Each line ends before the edge: no wide character pushed one over, to wrap.
      for (const line of lines.slice(0, 10)) assert.ok(displayWidth(line) <= 39, line);
      assert.equal(lines.filter((line) => /\d+\. /.test(line)).length, 8, screen);
      await terminal.resize(120, 30);
      screen = await terminal.waitFor(/Name +日本語のセッション名前/);
      assert.equal(screen.split("\n").filter((line) => /\d+\. /.test(line)).length, 22, screen);
      await terminal.resize(40, 10);
      screen = await terminal.waitFor(/^(?![\s\S]*Name +日本語)[\s\S]*8\. Session 8/);
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.deepEqual(resumed(world), [main[0].guid]);
    } finally {
      await terminal.close();
    }
  },
);

/** The pid of the claudecm running in `folder` (Linux: its cwd and command line). */
function claudecmPid(folder: string): number | undefined {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.realPathSync(`/proc/${entry.name}/cwd`) !== Deno.realPathSync(folder)) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (cmdline.some((arg) => /main\.ts$|claudecm$/.test(arg))) return Number(entry.name);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return undefined;
}

Deno.test({
  name: "picker: SIGTERM leaves the alternate screen and raw mode, exit 143, nothing launched",
  ignore: PICKER_IGNORED || Deno.build.os !== "linux",
  fn: () =>
    inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Alpha" }]);
      const terminal = await openPicker(world, ["list"]);
      try {
        const pid = claudecmPid(world.project);
        assert.ok(pid !== undefined, "claudecm's pid");
        Deno.kill(pid, "SIGTERM");
        assert.equal(await exitOf(terminal), 143);
        assert.doesNotMatch(await terminal.screen(), /Enter resume|Alpha/);
        assert.deepEqual(world.launches(), []);
      } finally {
        await terminal.close();
      }
    }),
});

pickerTest(
  "a pasted line break filters with the text around it and resumes nothing",
  async (world) => {
    seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta docs" }]);
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["\x1b[200~beta\rdocs\x1b[201~"], { literal: true });
      const screen = await terminal.waitFor(/> beta docs_/);
      assert.match(screen, /1\/2/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(
        await terminal.exitCode(),
        undefined,
        "still open: the paste's \\r was no Enter",
      );
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
      assert.deepEqual(world.launches(), []);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "the highlight is reverse video in colour, and no colour at all with NO_COLOR",
  async (world) => {
    seedSessions(world, [{ desc: "Alpha" }, { desc: "Beta" }]);
    const env = { ...world.env };
    delete env.NO_COLOR;
    const coloured = await openTmux(["list"], { env, cwd: world.project });
    try {
      await coloured.waitFor(/Enter resume/);
      // deno-lint-ignore no-control-regex -- the terminal's own codes are what is read
      const highlighted = /\x1b\[(0;)?7m[^\n]*1\. Alpha/;
      let screen = "";
      for (let tries = 0; tries < 100 && !highlighted.test(screen); tries++) {
        screen = await coloured.screen({ escapes: true });
        if (!highlighted.test(screen)) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.match(screen, highlighted, "the highlighted row in reverse video");
      await coloured.keys(["Escape"]);
    } finally {
      await coloured.close();
    }
    const plain = await openPicker(world, ["list"]);
    try {
      const screen = await plain.screen({ escapes: true });
      // deno-lint-ignore no-control-regex -- the terminal's own codes are what is read
      assert.doesNotMatch(screen, /\x1b\[(?!0?m|39m|49m)[0-9;]*m/, "NO_COLOR: no colour or style");
      assert.match(screen, /^>\s+1\. Alpha/m, "the highlight still shows, as a >");
      await plain.keys(["Escape"]);
    } finally {
      await plain.close();
    }
  },
);

pickerTest(
  "Ctrl-X deletes the highlighted session after the typed confirmation; Ctrl-T names the machine",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "Keep" }, { desc: "Drop" }]);
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["drop"], { literal: true });
      await terminal.waitFor(/1\/2/);
      await terminal.keys(["C-x"]);
      await terminal.waitFor(/Type 'delete' to confirm/);
      // Literal: without it tmux reads "delete" as the Delete key.
      await terminal.keys(["delete"], { literal: true });
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/1\/1/);
      assert.deepEqual(world.sessions().map((s) => s.guid), [main[0].guid]);
      // The picker opened again hears of the index update the first one started.
      await terminal.waitFor(/^(?![\s\S]*(indexing|searching))[\s\S]*1\/1/);
      await terminal.keys(["C-t"]);
      await terminal.waitFor(/New name \(Enter to keep\)/);
      await terminal.keys(["laptop"], { literal: true });
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/Enter resume/);
      assert.equal(Deno.readTextFileSync(world.paths.machineNameFile).trim(), "laptop");
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
      assert.deepEqual(world.launches(), []);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "Enter on a filter nothing matches offers a new project of that name, default No",
  async (world) => {
    seedSessions(world, [{ desc: "Alpha" }]);
    // The new session says something, so its transcript exists and its row stays.
    world.claudeScenario({ messages: ["hello"] });
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.keys(["Brand new"], { literal: true });
      await terminal.waitFor(/No match\. Enter: new project 'Brand new'/);
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/Create a NEW project named 'Brand new'\? \[y\/N\]/);
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/Enter resume/);
      assert.deepEqual(world.sessions().map((s) => s.desc), ["Alpha"], "No: nothing created");
      await terminal.keys(["Brand new"], { literal: true });
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/Create a NEW project/);
      await terminal.keys(["y"], { literal: true });
      await terminal.keys(["Enter"]);
      assert.equal(await exitOf(terminal), 0, await terminal.screen());
      assert.equal(world.sessions()[0].desc, "Brand new");
      assert.equal(world.launches().length, 1);
    } finally {
      await terminal.close();
    }
  },
);

pickerTest(
  "Ctrl-Y restores the highlighted session from the vault and says so before coming back",
  async (world) => {
    const { main } = seedSessions(world, [{ desc: "Lost one" }]);
    // A first run protects it in the vault; then Claude Code's clean-up takes the transcript.
    const first = await openPicker(world, ["list"]);
    await first.keys(["Escape"]);
    assert.equal(await exitOf(first), 0);
    await first.close();
    const transcript = transcriptPathFor(world.paths, main[0].dir, main[0].guid);
    Deno.removeSync(transcript);
    const terminal = await openPicker(world, ["list"]);
    try {
      await terminal.waitFor(/1\. Lost one +\(missing\)/);
      await terminal.keys(["C-y"]);
      await terminal.waitFor(
        /Restored 'Lost one' from the vault[\s\S]*Enter to go back to the list/,
      );
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/1\. Lost one +\d+ KB/);
      assert.ok(Deno.statSync(transcript).isFile);
      await terminal.keys(["Escape"]);
      assert.equal(await exitOf(terminal), 0);
      assert.deepEqual(world.launches(), []);
    } finally {
      await terminal.close();
    }
  },
);
