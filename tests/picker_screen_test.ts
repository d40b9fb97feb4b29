import assert from "node:assert/strict";
import {
  ESCAPE_WAIT_MS,
  type PickerTerminal,
  ScreenUnavailable,
  withScreen,
} from "../lib/ui/picker/screen.ts";

/** A terminal that types `reads` one by one and records what happened to it. */
function fakeTerminal(reads: string[]) {
  const log: string[] = [];
  let ending: ((code: number) => void) | undefined;
  let readsStarted = 0;
  const queue = [...reads];
  const terminal: PickerTerminal = {
    setRaw: (raw) => void log.push(`raw ${raw}`),
    write: (text) => void log.push(text),
    read(buffer) {
      readsStarted++;
      const next = queue.shift();
      if (next === undefined) return new Promise(() => {}); // Nobody types.
      const bytes = new TextEncoder().encode(next);
      buffer.set(bytes);
      return Promise.resolve(bytes.length);
    },
    size: () => ({ columns: 40, lines: 10 }),
    onResize: () => () => {},
    onEnding(listener) {
      ending = listener;
      return () => ending = undefined;
    },
    exit(code) {
      log.push(`exit ${code}`);
      throw new Error("exited");
    },
  };
  return { terminal, log, end: (code: number) => ending?.(code), reads: () => readsStarted };
}

const ENTER_SCREEN = "\x1b[?1049h";
const LEAVE_SCREEN = "\x1b[?1049l";

Deno.test("screen: raw mode and the alternate screen only while open, restored after", async () => {
  const { terminal, log, reads } = fakeTerminal(["ab\r"]);
  const keys = await withScreen(terminal, async (screen) => {
    assert.equal(log[0], "raw true");
    assert.ok(log[1].startsWith(ENTER_SCREEN));
    const event = await screen.next();
    return event.type === "keys" ? event.keys.length : 0;
  });
  assert.equal(keys, 3);
  assert.ok(log.at(-2)!.includes(LEAVE_SCREEN));
  assert.equal(log.at(-1), "raw false");
  assert.equal(reads(), 1, "no read is left pending once the keys decided");
});

Deno.test("screen: a throw restores the terminal and goes on", async () => {
  const { terminal, log } = fakeTerminal([]);
  await assert.rejects(
    withScreen(terminal, () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  assert.ok(log.at(-2)!.includes(LEAVE_SCREEN));
  assert.equal(log.at(-1), "raw false");
});

Deno.test("screen: SIGTERM restores the terminal before the process ends", async () => {
  const { terminal, log, end } = fakeTerminal([]);
  await withScreen(terminal, (screen) => {
    assert.throws(() => end(143), /exited/);
    screen.wake();
    return Promise.resolve();
  });
  const exit = log.indexOf("exit 143");
  assert.ok(exit > 0);
  assert.ok(log.slice(0, exit).some((line) => line.includes(LEAVE_SCREEN)));
  assert.equal(log.slice(0, exit).at(-1), "raw false");
  assert.equal(log.filter((line) => line.includes(LEAVE_SCREEN)).length, 1, "restored once");
});

Deno.test("screen: a lone ESC is the Escape key once nothing follows it", async () => {
  const { terminal } = fakeTerminal(["\x1b"]);
  const started = performance.now();
  const event = await withScreen(terminal, (screen) => screen.next());
  assert.deepEqual(event, { type: "keys", keys: [{ kind: "named", name: "escape" }] });
  assert.ok(performance.now() - started >= ESCAPE_WAIT_MS - 5);
});

Deno.test("screen: only the lines that changed are written again", async () => {
  const { terminal, log } = fakeTerminal([]);
  await withScreen(terminal, (screen) => {
    screen.draw(["one", "two"]);
    const before = log.length;
    screen.draw(["one", "TWO"]);
    assert.equal(log.length, before + 1);
    assert.ok(log.at(-1)!.includes("\x1b[2;1HTWO"));
    assert.ok(!log.at(-1)!.includes("one"));
    return Promise.resolve();
  });
});

Deno.test("screen: a terminal that refuses raw mode is ScreenUnavailable, nothing written", async () => {
  const { terminal, log } = fakeTerminal([]);
  terminal.setRaw = () => {
    throw new Error("not a terminal");
  };
  await assert.rejects(withScreen(terminal, () => Promise.resolve()), ScreenUnavailable);
  assert.deepEqual(log, []);
});
