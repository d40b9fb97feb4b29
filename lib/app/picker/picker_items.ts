/**
 * The saved sessions as the picker's rows, and each one's preview: the
 * same lookups the numbered list makes (one set for the whole list), and
 * for the highlighted session its folder, id, last activity, size and
 * tokens, vault state and last prompts.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import type { AdoptCandidate } from "../adopt/adopt_model.ts";
import { vaultEnabled } from "../vault/vault_sync.ts";
import { formatDateShort, formatMinute, formatSize } from "../../core/format.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import type { Session } from "../../core/registry.ts";
import { vaultEntryFor } from "../../core/session_copies.ts";
import {
  createSessionInfoCache,
  getSessionInfo,
  type SessionInfo,
  type SessionInfoCache,
} from "../../core/session_info.ts";
import { recentPrompts } from "../../transcript/recent_prompts.ts";
import { haystackOf, type PickerItem } from "../../ui/picker/filter.ts";
import type { PreviewData } from "../../ui/picker/render.ts";
import { FOLDER_GONE_MARK } from "../../ui/session_list.ts";

/** A row and what its preview is made from. */
export interface PickerEntry {
  item: PickerItem;
  session: Session;
  info: SessionInfo;
  /** Not saved: one of claude's sessions that picking adds (adopt). */
  candidate?: AdoptCandidate;
}

/** `sessions` (the main list, in order) as picker rows; `cache` holds lookups made already. */
export function pickerEntries(
  ctx: AppContext,
  { sessions, cache = createSessionInfoCache() }: {
    sessions: readonly Session[];
    cache?: SessionInfoCache;
  },
): PickerEntry[] {
  const now = ctx.now();
  const live = liveSessionIds(ctx.paths);
  return sessions.map((session, index) => {
    const isLive = live.has(session.guid);
    const info = getSessionInfo(ctx.paths, session, { now, cache, live: isLive });
    return {
      session,
      info,
      item: {
        number: index + 1,
        guid: session.guid,
        name: session.desc,
        // Marked as the numbered list marks it.
        folder: info.folderGone ? `${session.dir} ${FOLDER_GONE_MARK}` : session.dir,
        age: info.dateText,
        size: info.size,
        tokens: info.tokensText,
        live: isLive,
        haystack: haystackOf(session.desc, session.dir),
      },
    };
  });
}

/**
 * Claude's sessions the list does not have (`adopt`'s candidates), numbered
 * on from `after`: the picker's view of all of claude's sessions.
 */
export async function unlistedEntries(ctx: AppContext, after: number): Promise<PickerEntry[]> {
  const { listAdoptable } = await import("../adopt/adopt.ts");
  const now = ctx.now();
  return listAdoptable(ctx).candidates.map((candidate, index) => {
    const date = candidate.lastActivity === null ? null : new Date(candidate.lastActivity);
    const size = formatSize(candidate.size);
    const info: SessionInfo = {
      status: "ok",
      transcriptPath: candidate.transcript,
      problem: null,
      sizeBytes: candidate.size,
      size,
      date,
      dateText: date === null ? "--" : formatDateShort(date, now),
      dateIsFallback: false,
      tokensText: "--",
      folderGone: false,
    };
    const session = {
      guid: candidate.sessionId,
      dir: candidate.dir,
      desc: candidate.title,
      tokens: "",
    };
    return {
      session,
      info,
      candidate,
      item: {
        number: after + index + 1,
        guid: session.guid,
        name: session.desc,
        folder: session.dir,
        age: info.dateText,
        size,
        tokens: "--",
        live: false,
        unlisted: true,
        haystack: haystackOf(session.desc, session.dir),
      },
    };
  });
}

/** How many of the last prompts the preview shows at most. */
const PREVIEW_PROMPTS = 5;

/** What the preview shows of `entry`. */
export function previewOf(ctx: AppContext, entry: PickerEntry): PreviewData {
  const { session, info } = entry;
  const active = info.date === null
    ? "--"
    : formatMinute(info.date) + (info.dateIsFallback ? "*" : "");
  const facts = [
    { label: "Name", value: session.desc },
    { label: "Folder", value: session.dir },
    { label: "Id", value: session.guid },
    { label: "Active", value: active + (entry.item.live ? "  [live]" : "") },
    { label: "Size", value: `${info.size}, ${info.tokensText}` },
    {
      label: "Vault",
      value: entry.candidate === undefined ? vaultState(ctx, session) : "not in the list yet",
    },
  ];
  const prompts = info.status === "ok" ? recentPrompts(info.transcriptPath, PREVIEW_PROMPTS) : [];
  return { facts, prompts };
}

function vaultState(ctx: AppContext, session: Session): string {
  if (!vaultEnabled(ctx)) return "off (CLAUDECM_VAULT=off)";
  try {
    return vaultEntryFor(ctx.paths, session) === null ? "not protected yet" : "protected";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
