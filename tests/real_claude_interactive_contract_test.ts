// Contract tests of the real CLI's interactive mode, in a pseudo-terminal
// (util-linux `script`, Linux only; elsewhere these are ignored, visibly): the
// pid manifest, when the transcript appears, what /exit leaves behind, and
// whether a resume refuses a transcript that ends in /exit (spec 11.6.1 step
// 3a). Ignored unless CLAUDECM_REAL_CLAUDE names the pinned CLI.
import assert from "node:assert/strict";
import { resolvePaths } from "../lib/core/paths.ts";
import { isManifestLive, listPidManifests } from "../lib/core/pid_manifest.ts";
import { hostProcesses } from "../lib/platform/processes.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { continuesHistory } from "../lib/transcript/conversation.ts";
import { isPrintCallTranscript } from "../lib/transcript/session_facts.ts";
import { CLAUDE_SESSION_VARIABLES } from "../lib/platform/claude_env.ts";
import {
  createRealWorld,
  eventually,
  HAVE_PTY,
  jsonlFiles,
  PINNED_VERSION,
  readJsonl,
  REAL_CLAUDE,
  seedPrintedSession,
  startInTerminal,
} from "./helpers/real_claude.ts";

const ignore = REAL_CLAUDE === undefined || !HAVE_PTY;

/** The single `<pid>.json` in sessions/, parsed, once it exists. */
function manifestIn(root: string): Record<string, unknown> | undefined {
  try {
    const names = [...Deno.readDirSync(`${root}/sessions`)].map((e) => e.name).filter((n) =>
      /^\d+\.json$/.test(n)
    );
    return names.length === 1
      ? JSON.parse(Deno.readTextFileSync(`${root}/sessions/${names[0]}`))
      : undefined;
  } catch {
    return undefined;
  }
}

function noManifest(root: string): true | undefined {
  try {
    return [...Deno.readDirSync(`${root}/sessions`)].some((e) => e.name.endsWith(".json"))
      ? undefined
      : true;
  } catch {
    return true;
  }
}

Deno.test({
  name:
    "real claude (pty): manifest at launch, transcript at the first message, both right after /exit",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    const id = crypto.randomUUID();
    const terminal = startInTerminal(world, ["--session-id", id, "-n", "probe-name"], cwd);
    try {
      const manifest = await eventually(() => manifestIn(world.root), "sessions/<pid>.json");
      assert.equal(manifest.sessionId, id);
      assert.equal(manifest.cwd, cwd);
      assert.equal(manifest.version, PINNED_VERSION);
      assert.equal(manifest.kind, "interactive");
      assert.equal(manifest.entrypoint, "cli");
      assert.equal(typeof manifest.startedAt, "number");
      // The first write has a derived name and no status; both follow a moment later.
      const settled = await eventually(() => {
        const latest = manifestIn(world.root);
        return latest?.name === "probe-name" && typeof latest.status === "string"
          ? latest
          : undefined;
      }, "the -n name and a status in the manifest");
      assert.equal(settled.sessionId, id);
      assert.equal(settled.nameSource, "user");
      const stat = Deno.readTextFileSync(`/proc/${manifest.pid}/stat`);
      const field22 = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
      assert.equal(manifest.procStart, field22, "procStart is /proc/<pid>/stat field 22");
      const paths = resolvePaths((name) => world.env[name], "linux");
      const read = listPidManifests(paths);
      assert.deepEqual(
        read.map((m) => m.sessionId),
        [id],
        "lib/core/pid_manifest.ts reads the real manifest",
      );
      assert.equal(
        isManifestLive(read[0], hostProcesses),
        true,
        "and sees it live (pid and procStart)",
      );
      const commandLine = Deno.readTextFileSync(`/proc/${manifest.pid}/cmdline`).split("\0");
      assert.equal(
        Deno.realPathSync(commandLine[0]),
        Deno.realPathSync(REAL_CLAUDE!),
        "the pid is claude's own",
      );
      const file = `${world.root}/projects/${projectKey(cwd)}/${id}.jsonl`;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.deepEqual(
        jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`),
        [],
        "no transcript before a message",
      );

      await terminal.enter("hello world");
      await eventually(
        () => jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`).length ? true : undefined,
        "transcript",
      );
      const first = readJsonl(file).slice(0, 2);
      assert.deepEqual(first.map((line) => line.type), ["custom-title", "agent-name"]);

      await terminal.enter("/exit");
      assert.equal(await terminal.status, 0);
      await eventually(() => noManifest(world.root), "the manifest to go");
      assert.match(
        terminal.screen(),
        new RegExp(`Resume this session with:\\s*claude --resume ${id}`),
      );
      assert.equal(isPrintCallTranscript(file), false, "a typed session is no print call");
      const text = Deno.readTextFileSync(file);
      assert.ok(
        !text.includes("/exit</command-name>"),
        "2.1.332 leaves no /exit command in the transcript",
      );
    } finally {
      await terminal.stop();
      world.cleanup();
    }
  },
});

Deno.test({
  name:
    "real claude (pty): resuming a transcript that ends in an /exit command does not refuse (no 11.6.1 3a quirk)",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    const id = crypto.randomUUID();
    try {
      await seedPrintedSession(world, id, cwd);
      const file = `${world.root}/projects/${projectKey(cwd)}/${id}.jsonl`;
      appendExitTail(file);

      const terminal = startInTerminal(world, ["--resume", id], cwd);
      try {
        await eventually(() => manifestIn(world.root), "sessions/<pid>.json");
        await new Promise((resolve) => setTimeout(resolve, 3000));
        assert.ok(
          manifestIn(world.root) !== undefined,
          "still running: the resume was not refused",
        );
        await terminal.enter("more");
        await eventually(
          () =>
            readJsonl(file).some((l) =>
              l.type === "user" && l.message && JSON.stringify(l.message).includes("more")
            ) || undefined,
          "the prompt in the same file",
        );
        await terminal.enter("/exit");
        assert.equal(await terminal.status, 0);
        assert.deepEqual(
          jsonlFiles(`${world.root}/projects/${projectKey(cwd)}`),
          [`${id}.jsonl`],
          "appended, not forked",
        );
      } finally {
        await terminal.stop();
      }
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name:
    "real claude (pty): Ctrl-C twice exits 0, SIGTERM 143, SIGHUP 129, each removing the manifest",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    try {
      for (const [how, code] of [["ctrl-c", 0], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
        const terminal = startInTerminal(world, [], cwd);
        try {
          const manifest = await eventually(() => manifestIn(world.root), "sessions/<pid>.json");
          // Let the prompt come up before interrupting it.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          if (how === "ctrl-c") {
            await terminal.type("\x03");
            await new Promise((resolve) => setTimeout(resolve, 300));
            await terminal.type("\x03");
          } else {
            Deno.kill(manifest.pid as number, how);
          }
          assert.equal(await terminal.status, code, how);
          await eventually(() => noManifest(world.root), `the manifest to go after ${how}`);
        } finally {
          await terminal.stop();
        }
      }
    } finally {
      world.cleanup();
    }
  },
});

/** The tail older versions left after /exit: a user command line and its local output. */
function appendExitTail(file: string): void {
  const lines = readJsonl(file);
  const last = lines.filter((line) => typeof line.uuid === "string").at(-1)!;
  const common = {
    userType: "external",
    entrypoint: "cli",
    cwd: last.cwd,
    sessionId: last.sessionId,
    version: last.version,
    gitBranch: last.gitBranch,
  };
  const command = crypto.randomUUID();
  const tail = [
    {
      parentUuid: last.uuid,
      isSidechain: false,
      type: "user",
      message: {
        role: "user",
        content:
          "<command-name>/exit</command-name>\n            <command-message>exit</command-message>\n" +
          "            <command-args></command-args>",
      },
      uuid: command,
      timestamp: new Date().toISOString(),
      ...common,
    },
    {
      parentUuid: command,
      isSidechain: false,
      type: "system",
      subtype: "local_command",
      content: "<local-command-stdout>Bye!</local-command-stdout>",
      level: "info",
      timestamp: new Date().toISOString(),
      uuid: crypto.randomUUID(),
      isMeta: false,
      ...common,
    },
  ];
  Deno.writeTextFileSync(file, tail.map((line) => JSON.stringify(line) + "\n").join(""), {
    append: true,
  });
}

Deno.test({
  name:
    "real claude (pty): what its tool shells add to the environment is what claudecm removes (claude_env.ts)",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    const out = `${world.dir}/tool-shell-env.txt`;
    const terminal = startInTerminal(world, ["--session-id", crypto.randomUUID()], cwd);
    try {
      await eventually(() => manifestIn(world.root), "sessions/<pid>.json");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // `!` runs a command in claude's tool shell, with no model involved.
      await terminal.type("!");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminal.enter(`env > ${out}`);
      const text = await eventually(() => {
        try {
          return Deno.readTextFileSync(out) || undefined;
        } catch {
          return undefined;
        }
      }, "the tool shell's env");
      const added = text.split("\n").map((line) => line.split("=")[0]).filter((name) =>
        name !== "" && !(name in world.env)
      );
      // Not the session's: the shell's own, and settings claude gives every tool (git's editor,
      // corepack, Windows' exe lookup), which a new claude sets again for its own. LOGNAME is
      // set by the login machinery when the environment claudecm runs in has none.
      const known = new Set([
        ...CLAUDE_SESSION_VARIABLES,
        "SHELL",
        "GIT_EDITOR",
        "COREPACK_ENABLE_AUTO_PIN",
        "NoDefaultCurrentDirectoryInExePath",
        "PWD",
        "SHLVL",
        "_",
        "OLDPWD",
        "LOGNAME",
      ]);
      assert.deepEqual(
        added.filter((name) => !known.has(name)),
        [],
        "a new variable: add it to claude_env.ts",
      );
      for (const name of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION_ID"]) {
        assert.ok(added.includes(name), name);
      }
      await terminal.enter("/exit");
    } finally {
      await terminal.stop();
      world.cleanup();
    }
  },
});

Deno.test({
  name:
    "real claude (pty): /clear goes on under a new id in the manifest, in a transcript with none of the history",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    const id = crypto.randomUUID();
    const folder = `${world.root}/projects/${projectKey(cwd)}`;
    const terminal = startInTerminal(world, ["--session-id", id], cwd);
    try {
      await eventually(() => manifestIn(world.root), "sessions/<pid>.json");
      await terminal.enter("hello world");
      await eventually(() => jsonlFiles(folder).length ? true : undefined, "transcript");
      await terminal.enter("/clear");
      const cleared = await eventually(() => {
        const now = manifestIn(world.root)?.sessionId;
        return typeof now === "string" && now !== id ? now : undefined;
      }, "a new session id in the manifest");
      await terminal.enter("after the clear");
      await eventually(
        () => jsonlFiles(folder).includes(`${cleared}.jsonl`) ? true : undefined,
        "the new conversation's transcript",
      );
      assert.ok(
        !continuesHistory(`${folder}/${cleared}.jsonl`, `${folder}/${id}.jsonl`),
        "no message of the old conversation is carried over (next_session.ts tells it from a fork)",
      );
      await terminal.enter("/exit");
      assert.equal(await terminal.status, 0);
    } finally {
      await terminal.stop();
      world.cleanup();
    }
  },
});
