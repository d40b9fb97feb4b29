import assert from "node:assert/strict";
import {
  isFolderGone,
  isGoneOrClosed,
  lookAgainIfGone,
  readRegularFile,
} from "../lib/core/fs_checks.ts";

Deno.test("lookAgainIfGone looks again while a file vanishes, and says when they never hold still", () => {
  let runs = 0;
  const settled = lookAgainIfGone(() => {
    runs++;
    if (runs < 3) throw new Deno.errors.NotFound("moved meanwhile");
    return "seen";
  });
  assert.equal(settled, "seen");
  assert.equal(runs, 3);
  runs = 0;
  const never = lookAgainIfGone(() => {
    runs++;
    throw new Deno.errors.NotADirectory("its folder became a file");
  });
  assert.equal(never, "changing");
  assert.equal(runs, 3);
});

Deno.test("lookAgainIfGone passes any other error on at once", () => {
  let runs = 0;
  assert.throws(
    () =>
      lookAgainIfGone(() => {
        runs++;
        throw new Deno.errors.PermissionDenied("closed");
      }),
    Deno.errors.PermissionDenied,
  );
  assert.equal(runs, 1);
});

Deno.test("isGoneOrClosed: gone, its folder gone, or closed to us; not other errors", () => {
  assert.ok(isGoneOrClosed(new Deno.errors.NotFound("x")));
  assert.ok(isGoneOrClosed(new Deno.errors.NotADirectory("x")));
  assert.ok(isGoneOrClosed(new Deno.errors.PermissionDenied("x")));
  assert.ok(!isGoneOrClosed(new Deno.errors.IsADirectory("x")));
  assert.ok(!isGoneOrClosed(new Error("disk on fire")));
});

Deno.test({
  name: "readRegularFile reads a regular file under its cap, never a device, a pipe or a folder",
  ignore: Deno.build.os === "windows",
  fn: () => {
    const dir = Deno.makeTempDirSync();
    try {
      const file = `${dir}/settings.json`;
      Deno.writeTextFileSync(file, "{}");
      assert.deepEqual(readRegularFile(file, 10), { bytes: new TextEncoder().encode("{}") });
      assert.match((readRegularFile(file, 1) as { skipped: string }).skipped, /too large/);
      assert.match((readRegularFile(dir, 10) as { skipped: string }).skipped, /folder/);
      // A link to /dev/zero would never end; a FIFO with no writer would never answer.
      Deno.symlinkSync("/dev/zero", `${dir}/zero.json`);
      assert.match(
        (readRegularFile(`${dir}/zero.json`, 10) as { skipped: string }).skipped,
        /not a regular file/,
      );
      assert.ok(new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).outputSync().success);
      assert.match((readRegularFile(`${dir}/pipe`, 10) as { skipped: string }).skipped, /regular/);
      assert.throws(() => readRegularFile(`${dir}/none`, 10), Deno.errors.NotFound);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("isFolderGone: nothing there, or a file in its place, is gone; a folder is not", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/file`;
    Deno.writeTextFileSync(file, "");
    assert.equal(isFolderGone(dir), false);
    assert.equal(isFolderGone(`${dir}/nothing`), true);
    assert.equal(isFolderGone(file), true, "a file stands where the folder was");
    assert.equal(isFolderGone(`${file}/below`), true, "its parent is a file: not there");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
