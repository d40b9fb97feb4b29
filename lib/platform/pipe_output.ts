/**
 * Reading a child's output pipe without waiting on whoever else holds it.
 * A pipe ends when every copy of its write end is closed, and the child is
 * not the only one that may have a copy: a grandchild it left running, or,
 * on Windows, a process started at the same moment by another spawn (handle
 * inheritance there is process-wide) keeps the pipe open after the child
 * has exited. spawn.ts therefore reads until the child has exited and then
 * gives the pipes a short grace period, not forever.
 *
 * @module
 */

import { concatBytes } from "../core/bytes.ts";

/** How long a pipe may stay open after its child exited before reading stops. */
export const PIPE_GRACE_MS = 500;

/** A pipe being read to the end, or until {@linkcode PipeOutput.stop}. */
export interface PipeOutput {
  /** Everything read, once the pipe ended or reading was stopped. */
  bytes: Promise<Uint8Array>;
  /** Stop reading now; `bytes` then holds what was read so far. */
  stop(): void;
}

/** Start reading `stream` to its end. */
export function readPipe(stream: ReadableStream<Uint8Array>): PipeOutput {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const bytes = (async () => {
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch {
      // Cancelled, or the pipe broke: what was read is the output.
    }
    return concatBytes(chunks);
  })();
  return {
    bytes,
    stop: () => {
      reader.cancel().catch(() => {});
    },
  };
}

/**
 * What `pipes` hold once their child has exited: each is read to its end,
 * or for {@linkcode PIPE_GRACE_MS} at most, then stopped.
 */
export async function drainAfterExit(pipes: PipeOutput[]): Promise<Uint8Array[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, PIPE_GRACE_MS);
  });
  try {
    const all = Promise.all(pipes.map((pipe) => pipe.bytes));
    await Promise.race([all, grace]);
    for (const pipe of pipes) pipe.stop();
    return await all;
  } finally {
    clearTimeout(timer);
  }
}
