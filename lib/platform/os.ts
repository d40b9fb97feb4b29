/**
 * The operating system claudecm runs on: the one place below the context
 * that asks (issue 32 item 2). Decisions take `os` as a parameter (a flow
 * from `ctx.os`), so a test runs their Windows branch on Linux; this fact
 * is read directly only where a module works this machine's files and
 * terminal as they are (this OS's path functions in `lib/core/path.ts`, a
 * directory fsync, a file mode, the busy-file retry), and it imports
 * nothing, so every layer may load it at no cost.
 *
 * @module
 */

/** `Deno.build.os` of this process. */
export const hostOs: typeof Deno.build.os = Deno.build.os;
