/**
 * `claudecm vault [--json]`, `vault sync`, `vault prune [--dry-run]`: the
 * vault of registered sessions, `~/.claudecm/vault/`.
 *
 * @module
 */

import type { CommandSpec } from "./command.ts";

/** `vault`: the status, and a group: `vault sync`, `vault prune`. */
export const vaultCommand: CommandSpec = {
  name: "vault",
  description: "show which sessions the vault protects from Claude Code's clean-up",
  options: [{ flags: "--json", description: "print the status as JSON, for scripts" }],
  helpAfter: "\nThe vault (~/.claudecm/vault/<project key>/) keeps every registered session's\n" +
    "transcript and sidecar folder restorable, by hard link (no extra disk) or, where links\n" +
    "cannot be made, by copy. claudecm keeps it in step whenever it writes; restore a\n" +
    "session with `claudecm restore N`. Read-only; exit 0 even when some are unprotected.\n",
  run: async (input, makeContext) => {
    const { runVaultStatus } = await import("../app/vault/vault_status.ts");
    return runVaultStatus(makeContext(), { json: input.flag("json") });
  },
  subcommands: [
    {
      name: "sync",
      description: "bring the vault up to date with every registered session now",
      run: async (_input, makeContext) => {
        const { runVaultSync } = await import("../app/vault/vault_sync_command.ts");
        return runVaultSync(makeContext());
      },
    },
    {
      name: "prune",
      description: "remove vault entries of sessions that are no longer registered",
      options: [{ flags: "--dry-run", description: "list what would be removed, remove nothing" }],
      helpAfter: "\nLists each entry's session id, path and bytes. Hard-linked files free their\n" +
        "space only when no other link remains.\n",
      run: async (input, makeContext) => {
        const { runVaultPrune } = await import("../app/vault/vault_prune.ts");
        return await runVaultPrune(makeContext(), { dryRun: input.flag("dryRun") });
      },
    },
  ],
};
