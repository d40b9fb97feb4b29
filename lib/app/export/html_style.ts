/**
 * The export page's style sheet, inline in every page: light by default,
 * dark when the reader's system is, one column that fits a phone, and a
 * print layout without backgrounds that keeps blocks whole where it can and
 * prints what is collapsed on screen (thinking, long results) in full.
 *
 * @module
 */

/** The page's CSS. */
export const PAGE_STYLE = `
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--code:#f6f8fa;--user:#ddf4ff;
--add:#dafbe1;--del:#ffebe9;--err:#cf222e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--code:#151b23;--user:#0c2d4b;--add:#12361f;--del:#4a1719;--err:#ff7b72}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:56rem;padding:1rem;background:var(--bg);color:var(--fg);
font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:.2rem 0 .6rem}
h2{font-size:1rem;margin:0 0 .4rem;color:var(--muted)}
time{font-weight:normal;font-size:.85rem;color:var(--muted)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:0;font-size:.9rem}
dt{color:var(--muted)}dd{margin:0}
header{border-bottom:1px solid var(--line);padding-bottom:.8rem;margin-bottom:1rem}
.turn{border-left:3px solid var(--line);padding:.2rem 0 .2rem .8rem;margin:0 0 1rem}
.turn.user{border-color:#0969da}
.prompt{background:var(--user);border-radius:6px;padding:.5rem .7rem;white-space:pre-wrap}
.markdown p{margin:.4rem 0;white-space:pre-wrap}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;
overflow-x:auto;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);
padding:0 .2rem;border-radius:4px}
pre code{padding:0;background:none}
.tool-name,.result-name{font-size:.9rem;font-weight:600}
.diff .add{background:var(--add);display:block}.diff .del{background:var(--del);display:block}
.error .result-name,.error summary{color:var(--err)}
details{margin:.4rem 0}summary{cursor:pointer;color:var(--muted);font-size:.9rem}
.subagent{border:1px dashed var(--line);border-radius:6px;padding:.5rem .7rem}
.event{color:var(--muted);font-size:.9rem;margin:0 0 1rem}
.shot{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
.muted,footer{color:var(--muted);font-size:.9rem}
@media print{:root{--bg:#fff;--fg:#000;--code:#fff;--user:#fff}body{max-width:none;padding:0}
.turn,pre,.tool,.result{break-inside:avoid}summary{color:#000}
details::details-content{content-visibility:visible;display:block}}
`;
