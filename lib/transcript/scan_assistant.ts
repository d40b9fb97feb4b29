/**
 * An assistant line read from its raw bytes, for readers that see every one
 * of them (the refresh skeleton, the recover digest). What JSON.parse would spend on a line goes
 * mostly into tool inputs (a Write carries the whole file) and metadata the
 * reader never looks at; here only the strings the entry holds are decoded,
 * and a tool's input only as far as the reader asks.
 *
 * The result equals `toEntry(JSON.parse(line))` (model.ts) in what the
 * skeleton and the digest read: the content, `cwd`, `gitBranch` and the flags
 * (`uuid`, `sessionId` and `timestamp` are left out), and a tool input holds only the
 * keys asked for unless the reader wants it whole.
 * Any shape off the common path (an escaped key name, a `message` that is
 * not an object, a tool_result block, bytes that are not valid JSON) gives
 * undefined, and the caller parses the line instead.
 *
 * @module
 */

import {
  asJsonBytes,
  BACKSLASH,
  type JsonBytes,
  keyBytes,
  LBRACE,
  LBRACKET,
  type PeekInput,
  QUOTE,
  sameBytes,
  skipMemberValue,
  skipSpace,
  skipString,
  skipValue,
} from "./json_bytes.ts";
import { valueAt, walkArray, walkObject } from "./json_read.ts";
import type { AssistantEntry, ContentBlock } from "./model.ts";

/** Options for {@linkcode peekAssistant}. */
export interface PeekAssistantOptions {
  /** The keys of a tool call's input to read; the others are left out. */
  inputKeys: ReadonlySet<string>;
  /** Given a call's name and its input as read, whether the whole input is needed after all. */
  wholeInput: (name: string, input: Record<string, unknown>) => boolean;
}

const inputKeyLists = new WeakMap<ReadonlySet<string>, { names: string[]; bytes: Uint8Array[] }>();

/** Thrown inside a walk to give the line up to JSON.parse. */
class Unfollowable extends Error {}

const TRUE = 0x74;

/** Key names as bytes, so keys are matched without making strings of them. */
const names = (...list: string[]) => list.map(keyBytes);
const TOP = names(
  "type",
  "message",
  "cwd",
  "gitBranch",
  "isSidechain",
  "isMeta",
  "isApiErrorMessage",
);
const [TYPE, MESSAGE, CWD, BRANCH, SIDECHAIN, META, API_ERROR] = TOP.map((_, i) => i);
const CONTENT = names("content");
const BLOCK = names("type", "text", "id", "name", "input");
const [BLOCK_TYPE, TEXT, ID, NAME, INPUT] = BLOCK.map((_, i) => i);
/**
 * Where each key's value starts, -1 for a key not seen (a repeated key's last
 * value wins); copied per line, which is cheaper than filling a new array.
 */
const TOP_UNSEEN = TOP.map(() => -1);
const BLOCK_UNSEEN = BLOCK.map(() => -1);

/** The assistant entry of `input`, or undefined when the line must be parsed instead. */
export function peekAssistant(
  input: PeekInput,
  options: PeekAssistantOptions,
): AssistantEntry | undefined {
  const line = asJsonBytes(input);
  try {
    let content: ContentBlock[] | undefined;
    const at = TOP_UNSEEN.slice();
    const end = walkObject(line, 0, (nameStart, nameEnd, valueStart) => {
      const key = keyIndex(line, nameStart, nameEnd, TOP);
      if (key === MESSAGE) {
        const message = readMessage(line, valueStart, options);
        content = message.content;
        return message.end;
      }
      const valueEnd = skipMemberValue(line, valueStart);
      if (key !== -1) at[key] = valueStart;
      return valueEnd;
    });
    if (end === -1 || skipSpace(line.bytes, end) !== line.bytes.length) return undefined;
    if (content === undefined || stringAt(line, at[TYPE]) !== "assistant") return undefined;
    const flag = (key: number) => line.bytes[at[key]] === TRUE ? true : undefined;
    return {
      type: "assistant",
      cwd: stringAt(line, at[CWD]),
      gitBranch: stringAt(line, at[BRANCH]),
      isSidechain: flag(SIDECHAIN),
      isMeta: flag(META),
      content,
      isApiErrorMessage: flag(API_ERROR),
    };
  } catch (error) {
    if (error instanceof Unfollowable || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The content blocks of the message object at `start`, and where the message ends. */
function readMessage(
  line: JsonBytes,
  start: number,
  options: PeekAssistantOptions,
): { content: ContentBlock[]; end: number } {
  if (line.bytes[start] !== LBRACE) throw new Unfollowable();
  let content: ContentBlock[] | undefined;
  const end = walkObject(line, start, (nameStart, nameEnd, valueStart) => {
    if (keyIndex(line, nameStart, nameEnd, CONTENT) === -1) {
      return skipMemberValue(line, valueStart);
    }
    const first = line.bytes[valueStart];
    if (first === QUOTE) {
      const valueEnd = skipMemberValue(line, valueStart);
      if (valueEnd === -1) return -1;
      content = [{ type: "text", text: stringAt(line, valueStart)! }];
      return valueEnd;
    }
    if (first !== LBRACKET) throw new Unfollowable();
    const blocks: ContentBlock[] = [];
    content = blocks;
    return walkArray(line, valueStart, (blockStart) => {
      const block = readBlock(line, blockStart, options);
      blocks.push(block.block);
      return block.end;
    });
  });
  if (end === -1 || content === undefined) throw new Unfollowable();
  return { content, end };
}

/** The content block at `start`, as model.ts's `toBlock` makes it, and where it ends. */
function readBlock(
  line: JsonBytes,
  start: number,
  options: PeekAssistantOptions,
): { block: ContentBlock; end: number } {
  if (line.bytes[start] !== LBRACE) {
    return { block: { type: "other" }, end: skipValue(line, start) };
  }
  const at = BLOCK_UNSEEN.slice();
  let input: { read: Record<string, unknown>; start: number; end: number } | undefined;
  const end = walkObject(line, start, (nameStart, nameEnd, valueStart) => {
    const key = keyIndex(line, nameStart, nameEnd, BLOCK);
    if (key === INPUT) {
      input = line.bytes[valueStart] === LBRACE
        ? readInput(line, valueStart, options.inputKeys)
        : undefined;
      return input?.end ?? skipMemberValue(line, valueStart);
    }
    if (key !== -1) at[key] = valueStart;
    return skipMemberValue(line, valueStart);
  });
  if (end === -1) throw new Unfollowable();
  const type = stringAt(line, at[BLOCK_TYPE]);
  if (type === "text") {
    const text = stringAt(line, at[TEXT]);
    if (text !== undefined) return { block: { type: "text", text }, end };
  }
  const name = stringAt(line, at[NAME]);
  if (type === "tool_use" && name !== undefined) {
    let whole: Record<string, unknown> = {};
    if (input !== undefined) {
      whole = options.wholeInput(name, input.read)
        ? valueAt(line, input.start, input.end) as Record<string, unknown>
        : input.read;
    }
    return {
      block: { type: "tool_use", id: stringAt(line, at[ID]) ?? "", name, input: whole },
      end,
    };
  }
  // A tool_result here would need its text; rare enough to leave to JSON.parse.
  if (type === "tool_result") throw new Unfollowable();
  return { block: { type: "other" }, end };
}

/** The `keys` of the input object at `start`, and where the object ends. */
function readInput(
  line: JsonBytes,
  start: number,
  keys: ReadonlySet<string>,
): { read: Record<string, unknown>; start: number; end: number } {
  const read: Record<string, unknown> = {};
  const wanted = inputKeyBytes(keys);
  const end = walkObject(line, start, (nameStart, nameEnd, valueStart) => {
    const valueEnd = skipMemberValue(line, valueStart);
    if (valueEnd === -1) return -1;
    const key = keyIndex(line, nameStart, nameEnd, wanted.bytes);
    if (key !== -1) read[wanted.names[key]] = valueAt(line, valueStart, valueEnd);
    return valueEnd;
  });
  if (end === -1) throw new Unfollowable();
  return { read, start, end };
}

/** Which of `list` the key from `start` to `end` is; -1 for none. */
function keyIndex(line: JsonBytes, start: number, end: number, list: Uint8Array[]): number {
  escapedKey(line, start, end);
  for (let k = 0; k < list.length; k++) {
    if (sameBytes(line.bytes, start, end, list[k])) return k;
  }
  return -1;
}

/**
 * The input keys a reader asks for, as names and bytes, made once per set:
 * a call's keys are then matched in its bytes, not made into strings and
 * looked up (most keys of most calls are not asked for).
 */
function inputKeyBytes(keys: ReadonlySet<string>): { names: string[]; bytes: Uint8Array[] } {
  let found = inputKeyLists.get(keys);
  if (found === undefined) {
    const list = [...keys];
    inputKeyLists.set(keys, found = { names: list, bytes: names(...list) });
  }
  return found;
}

/** An escaped key name (`"\u0074ype"`) could be any key: the line is left to JSON.parse. */
function escapedKey(line: JsonBytes, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    if (line.bytes[i] === BACKSLASH) throw new Unfollowable();
  }
}

/** The string value starting at `start`, decoded; undefined when absent or not a string. */
function stringAt(line: JsonBytes, start: number): string | undefined {
  if (start === -1 || line.bytes[start] !== QUOTE) return undefined;
  return valueAt(line, start, skipString(line, start)) as string;
}
