import assert from "node:assert/strict";
import {
  decideRunAs,
  lookupUser,
  parsePasswdLine,
  permissionArgs,
  type Reexec,
  reexec,
  type RunAsFacts,
  runAsFacts,
  selfCommand,
} from "../lib/platform/run_as.ts";

const CLAUDE_USER = { name: "claude", uid: 1001, home: "/home/claude", shell: "/bin/bash" };
const SELF = ["/usr/local/bin/claudecm", "n", "--proj", "/srv/my app"];

function facts(
  overrides: Partial<RunAsFacts> & { vars?: Record<string, string> } = {},
): RunAsFacts {
  const vars: Record<string, string> = { PATH: "/usr/bin:/bin", TERM: "xterm", ...overrides.vars };
  return {
    os: "linux",
    uid: 0,
    env: (name) => vars[name],
    user: CLAUDE_USER,
    sudo: "/usr/bin/sudo",
    runuser: "/usr/sbin/runuser",
    self: SELF,
    ...overrides,
  };
}

const CLEAN_ENV = [
  "HOME=/home/claude",
  "USER=claude",
  "LOGNAME=claude",
  "SHELL=/bin/bash",
  "PATH=/usr/bin:/bin",
  "TERM=xterm",
  "CLAUDECM_REEXECED=1",
];

Deno.test("decideRunAs: not root, or Windows, stays and may bypass", () => {
  assert.deepEqual(decideRunAs(facts({ uid: 1000 })), { action: "stay", bypassAllowed: true });
  assert.deepEqual(decideRunAs(facts({ os: "windows", uid: null })), {
    action: "stay",
    bypassAllowed: true,
  });
});

Deno.test("decideRunAs: root with the run-as user re-execs through sudo -H, args and a clean env kept", () => {
  assert.deepEqual(
    decideRunAs(
      facts({ vars: { CLAUDE_CONFIG_DIR: "/root/.claude", CLAUDECM_PERMISSION_MODE: "plan" } }),
    ),
    {
      action: "reexec",
      user: "claude",
      command: "/usr/bin/sudo",
      args: [
        "-u",
        "claude",
        "-H",
        "--",
        "env",
        "-i",
        ...CLEAN_ENV.slice(0, -1),
        "CLAUDECM_PERMISSION_MODE=plan",
        "CLAUDECM_REEXECED=1",
        ...SELF,
      ],
    },
  );
  assert.deepEqual(decideRunAs(facts({ sudo: null })), {
    action: "reexec",
    user: "claude",
    command: "/usr/sbin/runuser",
    args: ["-u", "claude", "--", "env", "-i", ...CLEAN_ENV, ...SELF],
  });
  const alice = { ...CLAUDE_USER, name: "alice", home: "/home/alice" };
  const decision = decideRunAs(facts({ user: alice, vars: { CLAUDECM_RUN_AS: "alice" } }));
  assert.equal(decision.action === "reexec" && decision.user, "alice");
});

Deno.test("decideRunAs: the user's claudecm choices and editor cross the switch; root's state does not", () => {
  const vars = {
    CLAUDECM_PERMISSIONS: "ask",
    CLAUDECM_CLAUDE: "/opt/claude",
    CLAUDECM_CMV: "/opt/cmv",
    CLAUDECM_VAULT: "copy",
    EDITOR: "vim",
    VISUAL: "code -w",
    CLAUDECM_HOME: "/root/.claudecm",
    CLAUDE_CONFIG_DIR: "/root/.claude",
  };
  const decision = decideRunAs(facts({ vars }));
  assert.equal(decision.action, "reexec");
  const args = decision.action === "reexec" ? decision.args : [];
  for (const carried of ["CLAUDECM_PERMISSIONS=ask", "CLAUDECM_CLAUDE=/opt/claude"]) {
    assert.ok(args.includes(carried), carried);
  }
  for (const carried of ["CLAUDECM_CMV=/opt/cmv", "CLAUDECM_VAULT=copy", "EDITOR=vim"]) {
    assert.ok(args.includes(carried), carried);
  }
  assert.ok(args.includes("VISUAL=code -w"));
  // Root's config file asked: the switch carries that, even with nothing in the environment.
  const fromConfig = decideRunAs(facts({ permissions: "ask" }));
  assert.ok(fromConfig.action === "reexec" && fromConfig.args.includes("CLAUDECM_PERMISSIONS=ask"));
  assert.ok(!args.some((arg) => arg.startsWith("CLAUDECM_HOME=")), "root's state stays root's");
  assert.ok(!args.some((arg) => arg.startsWith("CLAUDE_CONFIG_DIR=")));
});

Deno.test("decideRunAs: root without a user to switch to keeps the bypass flag only under IS_SANDBOX=1", () => {
  const noUser = decideRunAs(facts({ user: null }));
  assert.equal(noUser.action, "stay");
  assert.equal(noUser.action === "stay" && noUser.bypassAllowed, false);
  assert.match(
    (noUser as { notice: string }).notice,
    /^running as root with no 'claude' user .*IS_SANDBOX is not 1/,
  );
  assert.ok(!(noUser as { notice: string }).notice.includes("\n"), "one line");
  assert.deepEqual(decideRunAs(facts({ user: null, vars: { IS_SANDBOX: "1" } })), {
    action: "stay",
    bypassAllowed: true,
  });
  const noSwitcher = decideRunAs(facts({ sudo: null, runuser: null }));
  assert.match((noSwitcher as { notice: string }).notice, /neither sudo nor runuser/);
});

Deno.test("decideRunAs: never loops when the re-exec comes back as root", () => {
  const again = decideRunAs(facts({ vars: { CLAUDECM_REEXECED: "1", IS_SANDBOX: "1" } }));
  assert.deepEqual(again, { action: "stay", bypassAllowed: true });
  const rootUser = decideRunAs(facts({ user: { ...CLAUDE_USER, uid: 0 } }));
  assert.equal(rootUser.action, "stay");
});

Deno.test("permissionArgs: a chosen permission mode, else the bypass flag when allowed, else nothing", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(permissionArgs(env({}), true), ["--dangerously-skip-permissions"]);
  assert.deepEqual(permissionArgs(env({}), false), []);
  assert.deepEqual(permissionArgs(env({ CLAUDECM_PERMISSION_MODE: "acceptEdits" }), true), [
    "--permission-mode",
    "acceptEdits",
  ]);
  assert.deepEqual(permissionArgs(env({ CLAUDECM_PERMISSION_MODE: " " }), true), [
    "--dangerously-skip-permissions",
  ]);
});

Deno.test("parsePasswdLine reads name, uid, home and shell", () => {
  assert.deepEqual(
    parsePasswdLine("claude:x:1001:1001:Claude,,,:/home/claude:/bin/bash\n"),
    CLAUDE_USER,
  );
  assert.equal(parsePasswdLine("broken:x:notanumber:1::/:/bin/sh"), null);
  assert.equal(parsePasswdLine("short:x:1"), null);
});

Deno.test({
  name: "lookupUser finds root and not a user that does not exist",
  ignore: Deno.build.os === "windows",
  fn: () => {
    assert.equal(lookupUser("root")?.uid, 0);
    assert.equal(lookupUser("claudecm-test-no-such-user"), null);
    assert.equal(lookupUser("bad name; rm -rf"), null);
  },
});

Deno.test({
  name: "reexec runs the decided command on the terminal and returns its exit code",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    assert.equal(
      await reexec({ action: "reexec", user: "x", command: "sh", args: ["-c", "exit 3"] }),
      3,
    );
    assert.equal(selfCommand()[0], Deno.execPath());
  },
});

Deno.test({
  name: "as root, the decided runuser command really runs the target as that user, in the same cwd",
  ignore: Deno.build.os === "windows" || Deno.uid() !== 0 || lookupUser("nobody") === null ||
    !runAsFacts((name) => Deno.env.get(name)).runuser,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-runas-" });
    const previous = Deno.cwd();
    try {
      Deno.chmodSync(dir, 0o777);
      const decision = decideRunAs(facts({
        user: lookupUser("nobody"),
        sudo: null,
        runuser: runAsFacts((name) => Deno.env.get(name)).runuser,
        vars: { PATH: "/usr/bin:/bin", CLAUDE_CONFIG_DIR: "/root/.claude" },
        self: [
          "/bin/sh",
          "-c",
          'id -u > out; pwd >> out; echo "$HOME|$CLAUDECM_REEXECED|$CLAUDE_CONFIG_DIR" >> out',
        ],
      }));
      assert.equal(decision.action, "reexec");
      Deno.chdir(dir);
      assert.equal(await reexec(decision as Reexec), 0);
      const [uid, cwd, vars] = Deno.readTextFileSync(`${dir}/out`).trim().split("\n");
      assert.equal(uid, String(lookupUser("nobody")!.uid));
      assert.equal(cwd, Deno.realPathSync(dir));
      assert.equal(vars, `${lookupUser("nobody")!.home}|1|`);
    } finally {
      Deno.chdir(previous);
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
