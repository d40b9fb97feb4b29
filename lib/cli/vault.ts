/**
 * `claudecm vault [--json]`, `vault sync`, `vault prune [--dry-run]`: the
 * vault of registered sessions, `~/.claudecm/vault/`.
 *
 * @module
 */

import { defineCommand, defineSubcommand } from "./command.ts";

/** `vault`: the status, and a group: `vault sync`, `vault prune`. */
export const vaultCommand = defineCommand({
  options: [{ flags: "--json", description: "print the status as JSON, for scripts" }],
  helpAfter: "\nThe vault (~/.claudecm/vault/<project key>/) keeps every registered session's\n" +
    "transcript and sidecar folder restorable, by hard link (no extra disk) or, where links\n" +
    "cannot be made, by copy. claudecm keeps it in step whenever it writes; restore a\n" +
    "session with `claudecm restore N`. Read-only; exit 0 even when some are unprotected.\n",
  run: async (input, makeContext) => {
    const [{ runVaultStatus }, ctx] = await Promise.all([
      import("../app/vault/vault_status.ts"),
      makeContext(),
    ]);
    return runVaultStatus(ctx, { json: input.flag("json") });
  },
  subcommands: [
    defineSubcommand({
      name: "sync",
      description: "bring the vault up to date with every registered session now",
    }, {
      options: [{ flags: "--json", description: "print what was synced as JSON" }],
      run: async (input, makeContext) => {
        const [{ runVaultSync }, ctx] = await Promise.all([
          import("../app/vault/vault_sync_command.ts"),
          makeContext(),
        ]);
        return runVaultSync(ctx, { json: input.flag("json") });
      },
    }),
    defineSubcommand({
      name: "prune",
      description: "remove vault entries of sessions that are no longer registered",
    }, {
      options: [
        { flags: "--dry-run", description: "list what would be removed, remove nothing" },
        {
          flags: "--json",
          description: "print the entries (removed, or with --dry-run to remove)",
        },
      ],
      helpAfter: "\nLists each entry's session id, path and bytes. Hard-linked files free their\n" +
        "space only when no other link remains.\n",
      run: async (input, makeContext) => {
        const [{ runVaultPrune }, ctx] = await Promise.all([
          import("../app/vault/vault_prune.ts"),
          makeContext(),
        ]);
        return await runVaultPrune(ctx, { dryRun: input.flag("dryRun"), json: input.flag("json") });
      },
    }),
  ],
});
