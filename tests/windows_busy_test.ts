import assert from "node:assert/strict";
import { retryWhileBusy } from "../lib/store/windows_busy.ts";

function failingTimes(times: number, error: () => Error): () => string {
  let calls = 0;
  return () => {
    if (calls++ < times) throw error();
    return `done after ${calls}`;
  };
}

Deno.test("on Windows a file held back for a moment is tried again; other errors and other OSes fail at once", () => {
  const denied = () => new Deno.errors.PermissionDenied("Access is denied. (os error 5)");
  assert.equal(retryWhileBusy(failingTimes(2, denied), "windows"), "done after 3");
  assert.throws(
    () => retryWhileBusy(failingTimes(1, denied), "linux"),
    Deno.errors.PermissionDenied,
  );
  const missing = () => new Deno.errors.NotFound("gone");
  assert.throws(() => retryWhileBusy(failingTimes(1, missing), "windows"), Deno.errors.NotFound);
  const started = Date.now();
  assert.throws(
    () => retryWhileBusy(failingTimes(99, denied), "windows"),
    Deno.errors.PermissionDenied,
  );
  assert.ok(Date.now() - started < 2_000, "gives up after about half a second");
});
