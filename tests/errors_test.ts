import assert from "node:assert/strict";
import { environmentUserError, isBrokenPipe, UserError } from "../lib/core/errors.ts";
import { isNoRoom, isWriteRefusal, writeRefusal } from "../lib/core/write_refusal.ts";
import { join } from "../lib/core/path.ts";
import { writeFileAtomic } from "../lib/store/atomic_write.ts";

function osError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

Deno.test("environment failures become one-line user errors naming the path and the fix", () => {
  const cases: Array<[unknown, RegExp]> = [
    [
      new Deno.errors.PermissionDenied(
        "Permission denied (os error 13): readfile '/h/.claudecm/x'",
      ),
      /^permission denied: \/h\/\.claudecm\/x; let your user read and write it .*chmod/,
    ],
    [
      osError("EROFS", "Read-only file system (os error 30): open '/ro/sessions.txt.tmp'"),
      /^\/ro\/sessions\.txt\.tmp is on a read-only file system; make it writable/,
    ],
    [
      osError("ENOSPC", "No space left on device (os error 28): rename '/a b/x' -> '/a b/y'"),
      /^no space left to write \/a b\/x; free some disk space/,
    ],
    [
      new Deno.errors.IsADirectory("Is a directory (os error 21): readfile '/h/sessions.txt'"),
      /^\/h\/sessions\.txt is a folder where claudecm needs a file; move it away$/,
    ],
    [
      new Deno.errors.NotADirectory("Not a directory (os error 20): mkdir '/h/.claudecm/backup'"),
      /^part of \/h\/\.claudecm\/backup is a file where claudecm needs a folder/,
    ],
    [
      osError("ELOOP", "Too many levels of symbolic links (os error 40): readfile '/h/s.txt'"),
      /^a symbolic link in \/h\/s\.txt leads round in a loop/,
    ],
    [
      osError("ENAMETOOLONG", "File name too long (os error 36): readfile '/h/aaaa'"),
      /^a name in \/h\/aaaa is too long for the file system/,
    ],
    [
      osError("EIO", "Input/output error (os error 5): read '/h/s.txt'"),
      /^the disk failed to read or write \/h\/s\.txt \(I\/O error\)/,
    ],
    [
      // Nothing at the path itself: a folder on the way is the file (what Windows says then).
      new Deno.errors.AlreadyExists("File exists (os error 17): mkdir '/h/.claudecm/backup'"),
      /^part of \/h\/\.claudecm\/backup is a file where claudecm needs a folder/,
    ],
    [
      new Deno.errors.NotFound(
        "No such file or directory (os error 2): writefile '/h/.claudecm/sessions.txt'",
      ),
      /^cannot write \/h\/\.claudecm\/sessions\.txt: .* a symbolic link to nothing/,
    ],
  ];
  for (const [error, expected] of cases) {
    const userError = environmentUserError(error);
    assert.ok(userError instanceof UserError, String(error));
    assert.match(userError.message, expected);
    assert.doesNotMatch(userError.message, /\n/);
  }
  assert.equal(environmentUserError(new TypeError("x is undefined")), null);
  assert.equal(environmentUserError(new Deno.errors.NotFound("gone")), null);
  const file = Deno.makeTempFileSync();
  try {
    const made = new Deno.errors.AlreadyExists(`File exists (os error 17): mkdir '${file}'`);
    assert.equal(
      environmentUserError(made)?.message,
      `${file} is a file where claudecm needs a folder; move it away`,
    );
  } finally {
    Deno.removeSync(file);
  }
  // A file gone while it was read, or a link made twice, is a race or a bug: not the user's.
  const raced = [
    new Deno.errors.NotFound("No such file or directory (os error 2): readfile '/h/t.jsonl'"),
    new Deno.errors.AlreadyExists("File exists (os error 17): link '/a' -> '/b'"),
  ];
  for (const error of raced) assert.equal(environmentUserError(error), null);
  assert.ok(isWriteRefusal(osError("EDQUOT", "Disk quota exceeded (os error 122)")));
  assert.ok(!isWriteRefusal(new Deno.errors.IsADirectory("x")));
  assert.ok(isBrokenPipe(new Deno.errors.BrokenPipe("Broken pipe (os error 32)")));
});

Deno.test("a full disk during an atomic write is reported with the target's path", () => {
  const dir = Deno.makeTempDirSync();
  const writeSync = Deno.FsFile.prototype.writeSync;
  try {
    const target = `${dir}/sessions.txt`;
    Deno.writeTextFileSync(target, "precious");
    Deno.FsFile.prototype.writeSync = () => {
      // What Deno throws for a write to an open file on a full disk: no path in it.
      throw osError("ENOSPC", "No space left on device (os error 28)");
    };
    let caught: unknown;
    try {
      writeFileAtomic(target, "new content");
    } catch (error) {
      caught = error;
    } finally {
      Deno.FsFile.prototype.writeSync = writeSync;
    }
    const userError = environmentUserError(caught);
    assert.equal(
      userError?.message,
      `no space left to write ${Deno.realPathSync(target)}; free some disk space and run again`,
    );
    assert.equal(Deno.readTextFileSync(target), "precious");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["sessions.txt"]);
  } finally {
    Deno.FsFile.prototype.writeSync = writeSync;
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a folder where an atomic write's temporary file goes is named, and left alone", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const target = join(dir, "sessions.txt");
    Deno.mkdirSync(`${target}.tmp`);
    assert.throws(
      () => writeFileAtomic(target, "x\n", { tmpSuffix: ".tmp" }),
      (error: unknown) => {
        assert.ok(error instanceof UserError);
        assert.match(error.message, /sessions\.txt\.tmp is a folder where claudecm needs a file/);
        return true;
      },
    );
    assert.ok(Deno.statSync(`${target}.tmp`).isDirectory, "the user's folder is not removed");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("access denied on a folder opened as a file names the folder, not a permission", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const folder = join(dir, "sessions.txt");
    const file = join(dir, "backup.txt");
    Deno.mkdirSync(folder);
    Deno.writeTextFileSync(file, "");
    // What Windows says for a folder where a file is opened, copied or renamed onto.
    const denials = [
      `Access denied. (os error 5): open '${folder}'`,
      `Access denied. (os error 5): copy '${folder}' -> '${file}'`,
      `Access denied. (os error 5): rename '${file}' -> '${folder}'`,
    ].map((message) => new Deno.errors.PermissionDenied(message));
    for (const denial of denials) {
      assert.ok(!isWriteRefusal(denial), denial.message);
      assert.equal(
        environmentUserError(denial)?.message,
        `${folder} is a folder where claudecm needs a file; move it away`,
      );
    }
    // A folder listed, or a file renamed away from a folder it is in, is a real denial.
    for (
      const message of [
        `Access denied. (os error 5): readdir '${dir}'`,
        `Access denied. (os error 5): rename '${folder}' -> '${join(dir, "x")}'`,
        `Access denied. (os error 5): open '${file}'`,
      ]
    ) {
      assert.ok(isWriteRefusal(new Deno.errors.PermissionDenied(message)), message);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writeRefusal: the one classifier of every cannot-write cause (issue 30 item 11)", () => {
  const cases: Array<[unknown, string | null]> = [
    [osError("EROFS", "Read-only file system (os error 30): open '/ro/x'"), "readOnly"],
    [osError("EACCES", "Permission denied (os error 13): open '/x'"), "denied"],
    [osError("EPERM", "Operation not permitted (os error 1): open '/x'"), "denied"],
    [osError("ENOSPC", "No space left on device (os error 28)"), "full"],
    [osError("EDQUOT", "Disk quota exceeded (os error 122)"), "full"],
    [new Deno.errors.PermissionDenied("Permission denied (os error 13): open '/x'"), "denied"],
    // SQLite's words for the same causes (the search index).
    [new Error("attempt to write a readonly database"), "readOnly"],
    [new Error("unable to open database file"), "denied"],
    [new Error("database or disk is full"), "full"],
    [osError("EIO", "Input/output error (os error 5): read '/x'"), null],
    [new Deno.errors.NotFound("No such file or directory (os error 2): open '/x'"), null],
    [new TypeError("x is undefined"), null],
  ];
  if (Deno.build.os === "linux") {
    // An error that carries no code: its OS error number.
    cases.push([new Error("Read-only file system (os error 30)"), "readOnly"]);
    cases.push([new Error("Disk quota exceeded (os error 122)"), "full"]);
  }
  for (const [error, expected] of cases) {
    assert.equal(writeRefusal(error), expected, String(error));
    assert.equal(isWriteRefusal(error), expected !== null);
    assert.equal(isNoRoom(error), expected === "full");
  }
});

Deno.test("writeRefusal reads an error's OS number as the OS given numbers it", () => {
  // The OS is a parameter: Windows' numbers are checked on every OS.
  const full = new Error("There is not enough space on the disk. (os error 112)");
  assert.equal(writeRefusal(full, { os: "windows" }), "full");
  assert.equal(writeRefusal(full, { os: "linux" }), null);
  const readOnly = new Error("The media is write protected. (os error 19)");
  assert.equal(writeRefusal(readOnly, { os: "windows" }), "readOnly");
  // 5 is EIO on Linux, ERROR_ACCESS_DENIED on Windows.
  const five = new Error("(os error 5)");
  assert.equal(writeRefusal(five, { os: "windows" }), "denied");
  assert.equal(writeRefusal(five, { os: "linux" }), null);
  assert.equal(writeRefusal(new Error("(os error 28)"), { os: "linux" }), "full");
});
