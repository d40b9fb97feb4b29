// One vault file kept in step (issue 20.1): links first, copies when forced, a replaced
// file's old content kept as a numbered generation (at most 3), a verified prefix
// extended by appending.
import assert from "node:assert/strict";
import { join } from "node:path";
import { generationPath, MAX_GENERATIONS, syncFileToVault } from "../lib/store/vault_file_sync.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { restoreVaultEntry } from "../lib/store/vault_entry.ts";
import { symlinkIfSupported } from "./helpers/portable.ts";

function inTemp(test: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-vault-file-" });
  try {
    test(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

let clock = Date.now() - 60_000;

/** A new inode under the same name, as a rewrite or a rename makes (a later mtime). */
function replace(path: string, text: string): void {
  Deno.writeTextFileSync(`${path}.new`, text);
  const when = new Date(clock += 1000);
  Deno.utimeSync(`${path}.new`, when, when);
  Deno.renameSync(`${path}.new`, path);
}

for (const forceCopy of [false, true]) {
  const mode = forceCopy ? "copy" : "link";
  Deno.test(`vault file (${mode}): replaced content keeps the 3 newest generations`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      Deno.writeTextFileSync(source, "v0\n");
      assert.equal(syncFileToVault(source, target, { forceCopy })?.mode, mode);
      for (let v = 1; v <= 4; v++) {
        replace(source, `v${v}\n`);
        assert.equal(syncFileToVault(source, target, { forceCopy })?.changed, true);
      }
      assert.equal(Deno.readTextFileSync(target), "v4\n");
      const kept = [1, 2, 3].map((n) => Deno.readTextFileSync(generationPath(target, n)));
      assert.deepEqual(kept, ["v3\n", "v2\n", "v1\n"], "newest first; v0 dropped");
      assert.ok(!pathExists(generationPath(target, MAX_GENERATIONS + 1)));
      assert.equal(generationPath(target, 1), join(dir, "vault", "s.gen1.jsonl"));
    });
  });

  Deno.test(`vault file (${mode}): a transcript that is a symlink is kept as the file it leads to`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      const elsewhere = join(dir, "other disk.jsonl");
      Deno.writeTextFileSync(source, "line 1\n");
      syncFileToVault(source, target, { forceCopy });
      Deno.writeTextFileSync(elsewhere, "line 1\nline 2\n");
      Deno.removeSync(source);
      if (!symlinkIfSupported(elsewhere, source)) return;
      assert.equal(syncFileToVault(source, target, { forceCopy })?.changed, true);
      assert.ok(Deno.lstatSync(target).isFile, "the vault holds a file, not a link");
      Deno.removeSync(elsewhere);
      assert.equal(Deno.readTextFileSync(target), "line 1\nline 2\n");
    });
  });

  Deno.test(`vault file (${mode}): a symlink an older sync left in the vault is replaced by the file`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      Deno.writeTextFileSync(source, "line 1\n");
      Deno.mkdirSync(join(dir, "vault"));
      if (!symlinkIfSupported(source, target)) return;
      assert.equal(syncFileToVault(source, target, { forceCopy })?.changed, true);
      assert.ok(Deno.lstatSync(target).isFile);
      Deno.removeSync(source);
      assert.equal(Deno.readTextFileSync(target), "line 1\n");
    });
  });

  Deno.test(`vault file (${mode}): a replacement that extends the old content keeps no generation`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      Deno.writeTextFileSync(source, "line 1\n");
      syncFileToVault(source, target, { forceCopy });
      replace(source, "line 1\nline 2\n");
      syncFileToVault(source, target, { forceCopy });
      assert.equal(Deno.readTextFileSync(target), "line 1\nline 2\n");
      assert.ok(!pathExists(generationPath(target, 1)));
    });
  });
}

Deno.test("vault file (copy): an append is copied, then an unchanged file writes nothing", () => {
  inTemp((dir) => {
    const source = join(dir, "s.jsonl");
    const target = join(dir, "vault", "s.jsonl");
    Deno.writeTextFileSync(source, "a\n");
    syncFileToVault(source, target, { forceCopy: true });
    Deno.writeTextFileSync(source, "b\n", { append: true });
    const appended = syncFileToVault(source, target, { forceCopy: true });
    assert.deepEqual(appended, { mode: "copy", bytes: 4, changed: true });
    assert.equal(Deno.readTextFileSync(target), "a\nb\n");
    assert.notEqual(Deno.statSync(target).ino, Deno.statSync(source).ino);
    assert.equal(syncFileToVault(source, target, { forceCopy: true })?.changed, false);
  });
});

Deno.test("vault file: a source that is gone leaves the vault's file as it is", () => {
  inTemp((dir) => {
    const source = join(dir, "s.jsonl");
    const target = join(dir, "vault", "s.jsonl");
    Deno.writeTextFileSync(source, "keep me\n");
    syncFileToVault(source, target, { forceCopy: false });
    Deno.removeSync(source);
    assert.equal(syncFileToVault(source, target, { forceCopy: false }), null);
    assert.equal(Deno.readTextFileSync(target), "keep me\n");
  });
});

Deno.test("vault file (link): a replacement of the same size and mtime is compared by content", () => {
  inTemp((dir) => {
    const source = join(dir, "s.jsonl");
    const target = join(dir, "vault", "s.jsonl");
    const when = new Date(Date.now() - 5000);
    Deno.writeTextFileSync(source, "old\n");
    Deno.utimeSync(source, when, when);
    syncFileToVault(source, target, { forceCopy: false });
    Deno.writeTextFileSync(`${source}.new`, "new\n");
    Deno.utimeSync(`${source}.new`, when, when);
    Deno.renameSync(`${source}.new`, source);
    syncFileToVault(source, target, { forceCopy: false });
    assert.equal(Deno.readTextFileSync(target), "new\n");
    assert.equal(Deno.readTextFileSync(generationPath(target, 1)), "old\n", "old content kept");
  });
});

for (const forceCopy of [false, true]) {
  Deno.test(`vault file (${forceCopy ? "copy" : "link"}): a sync that fails shifts no generation out`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      Deno.writeTextFileSync(source, "v0\n");
      syncFileToVault(source, target, { forceCopy });
      replace(source, "v1\n");
      syncFileToVault(source, target, { forceCopy });
      replace(source, "v2 is longer\n");
      // Where the new version would be written, a folder: the write fails as a full disk would.
      const blocked = [`${target}.tmp-${Deno.pid}`, `${generationPath(target, 1)}.tmp-${Deno.pid}`];
      for (const path of blocked) {
        Deno.mkdirSync(path);
        Deno.writeTextFileSync(join(path, "keep"), "");
      }
      for (let run = 0; run < 3; run++) {
        assert.throws(() => syncFileToVault(source, target, { forceCopy }));
      }
      assert.equal(Deno.readTextFileSync(target), "v1\n");
      assert.equal(Deno.readTextFileSync(generationPath(target, 1)), "v0\n", "v0 still kept");
      assert.ok(!pathExists(generationPath(target, 2)));
      for (const path of blocked) Deno.removeSync(path, { recursive: true });
      syncFileToVault(source, target, { forceCopy });
      assert.equal(Deno.readTextFileSync(target), "v2 is longer\n");
      const kept = [1, 2].map((n) => Deno.readTextFileSync(generationPath(target, n)));
      assert.deepEqual(kept, ["v1\n", "v0\n"]);
    });
  });
}

for (const forceCopy of [false, true]) {
  Deno.test(`vault file (${forceCopy ? "copy" : "link"}): a sync killed between its shifts loses no generation at the next`, () => {
    inTemp((dir) => {
      const source = join(dir, "s.jsonl");
      const target = join(dir, "vault", "s.jsonl");
      Deno.writeTextFileSync(source, "v1\n");
      syncFileToVault(source, target, { forceCopy });
      for (let v = 2; v <= 4; v++) {
        replace(source, `v${v}\n`);
        syncFileToVault(source, target, { forceCopy });
      }
      // Killed after shifting 2 to 3 and 1 to 2, before the new generation 1 was in place.
      Deno.renameSync(generationPath(target, 2), generationPath(target, 3));
      Deno.renameSync(generationPath(target, 1), generationPath(target, 2));
      replace(source, "v5\n");
      syncFileToVault(source, target, { forceCopy });
      const kept = [1, 2, 3].map((n) => Deno.readTextFileSync(generationPath(target, n)));
      assert.deepEqual(kept, ["v4\n", "v3\n", "v2\n"], "as one whole sync would keep them");
    });
  });
}

Deno.test("vault file: a source that goes while it is copied is a source that is gone", () => {
  inTemp((dir) => {
    const source = join(dir, "s.jsonl");
    const target = join(dir, "vault", "s.jsonl");
    Deno.writeTextFileSync(source, "first\n");
    syncFileToVault(source, target, { forceCopy: true });
    replace(source, "rewritten\n");
    // Another window's D# removes it between the sync's look and its copy.
    const realCopy = Deno.copyFileSync;
    Deno.copyFileSync = (from, to) => {
      if (String(from) === source) Deno.removeSync(source);
      realCopy(from, to);
    };
    try {
      assert.equal(syncFileToVault(source, target, { forceCopy: true }), null);
    } finally {
      Deno.copyFileSync = realCopy;
    }
    assert.equal(Deno.readTextFileSync(target), "first\n", "the vault keeps what it has");
  });
});

Deno.test("restore from a vault entry that an older sync left as a symlink puts back the file", () => {
  inTemp((dir) => {
    const kept = join(dir, "elsewhere.jsonl");
    Deno.writeTextFileSync(kept, "line 1\n");
    Deno.mkdirSync(join(dir, "vault"));
    const vault = {
      folder: join(dir, "vault"),
      transcript: join(dir, "vault", "s.jsonl"),
      sidecar: join(dir, "vault", "s"),
    };
    if (!symlinkIfSupported(kept, vault.transcript)) return;
    const target = {
      folder: join(dir, "project"),
      transcript: join(dir, "project", "s.jsonl"),
      sidecar: join(dir, "project", "s"),
    };
    assert.equal(restoreVaultEntry(vault, target).status, "restored");
    assert.ok(Deno.lstatSync(target.transcript).isFile, "a file, not a link");
    Deno.removeSync(kept);
    assert.equal(Deno.readTextFileSync(target.transcript), "line 1\n");
  });
});

Deno.test("a restore that stops part way has not put the transcript back: the sidecar goes first", () => {
  inTemp((dir) => {
    const vault = {
      folder: join(dir, "vault"),
      transcript: join(dir, "vault", "s.jsonl"),
      sidecar: join(dir, "vault", "s"),
    };
    Deno.mkdirSync(join(vault.sidecar, "tool-results"), { recursive: true });
    Deno.writeTextFileSync(vault.transcript, "line 1\n");
    Deno.writeTextFileSync(join(vault.sidecar, "tool-results", "r1.txt"), "result\n");
    const target = {
      folder: join(dir, "project"),
      transcript: join(dir, "project", "s.jsonl"),
      sidecar: join(dir, "project", "s"),
    };
    // A file where a sidecar folder must go: placing the sidecar fails.
    Deno.mkdirSync(target.sidecar, { recursive: true });
    Deno.writeTextFileSync(join(target.sidecar, "tool-results"), "in the way");
    assert.throws(() => restoreVaultEntry(vault, target));
    assert.ok(!pathExists(target.transcript), "the transcript is put back last");
  });
});
