// Drives code-server (VS Code 1.100 in headless Chromium) for
// tests/editors/test_vscode.py: opens $BLEU_FILE from the explorer, reads the
// rendered inlay hints (.view-line text), the status item and the Problems
// panel, replaces one line by typing, reads again, and saves screenshots.
// Writes what it saw as JSON to $BLEU_OUT.  Every wait has a deadline.
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const env = process.env;
const url = env.BLEU_URL;
const file = env.BLEU_FILE;
const editLine = Number(env.BLEU_EDIT_LINE ?? "0");
const editText = env.BLEU_EDIT_TEXT ?? "";
const expectHints = Number(env.BLEU_EXPECT_HINTS ?? "1");
const expectLines = Number(env.BLEU_EXPECT_LINES ?? "0");
const timeout = Number(env.BLEU_TIMEOUT_MS ?? "60000");
const t0 = Date.now();
const out = { events: [], t0 }; // events: ms after t0 (ms since the epoch), to line up with a server timeline
const note = (what) => out.events.push(`${Date.now() - t0} ms ${what}`);
const HINT = /BLEU (\d+\.\d|n\/a)/;

async function waitFor(fn, ms = timeout, every = 100) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) {
      return last;
    }
    await new Promise((r) => setTimeout(r, every));
  }
  return last;
}

// Focus the editor's text by clicking its first drawn line.  While VS Code lays the editor
// out, that line can have no box for a moment ("Element is not visible"): try again until it has.
async function focusEditor(page) {
  const line = page.locator(".editor-instance .view-lines .view-line").first();
  await line.waitFor({ timeout });
  const ok = await waitFor(() => line.click({ force: true, timeout: 1000 }).then(() => true, () => false));
  if (!ok) await line.click({ force: true });  // its own error, if it still cannot
}

const browser = await chromium.launch({
  executablePath: env.BLEU_CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let page;
try {
  const [vw, vh] = (env.BLEU_VIEWPORT ?? "1500x1000").split("x").map(Number);
  page = await browser.newPage({ viewport: { width: vw, height: vh } });
  page.on("pageerror", (e) => note(`pageerror ${e.message}`));
  // VS Code's own debounce of inlay-hint requests (logged at trace level)
  out.debounce = [];
  page.on("console", (m) => {
    const t = m.text();
    if (t.includes("DEBOUNCE")) out.debounce.push([Date.now(), t.replace(/\s+/g, " ").slice(0, 200)]);
  });

  // Visible editor lines (line number -> rendered text, hint included).  MT
  // files wrap (the extension turns word wrap on for them): a row without a
  // line number continues the numbered row above it.
  const readLines = () =>
    page.evaluate(() => {
      const editor = document.querySelector(".editor-instance");
      if (!editor) return {};
      const numbers = {};
      for (const n of editor.querySelectorAll(".margin-view-overlays .line-numbers")) {
        const no = Number(n.textContent.trim());
        if (no) numbers[parseFloat(n.parentElement.style.top)] = no;
      }
      const rows = [...editor.querySelectorAll(".view-lines .view-line")]
        .map((v) => [parseFloat(v.style.top), v.textContent.replace(/\u00a0/g, " ")])
        .sort((a, b) => a[0] - b[0]);
      const lines = {};
      let current = null;
      for (const [top, text] of rows) {
        if (numbers[top]) {
          current = numbers[top] - 1;
          lines[current] = text;
        } else if (current !== null) {
          lines[current] += text;
        }
      }
      return lines;
    });
  // The file's text on screen: its first line drawn with its words (an
  // editor being opened shows empty rows while the file is still read).
  const textShown = async () => Boolean((await readLines())[0]?.trim());
  const statusItem = () =>
    page.evaluate(() => {
      const el = document.getElementById("bleu-ls.bleu-ls.bleuLs.corpusScore");
      return el ? { text: el.textContent.trim(), label: el.getAttribute("aria-label") ?? "" } : null;
    });
  const problemsItem = () =>
    page.evaluate(() => {
      const el = document.getElementById("status.problems");
      return el ? el.getAttribute("aria-label") ?? "" : null;
    });

  // Semantic highlighting (BLEU_MODE=tokens): the styled spans of the
  // visible lines (text, classes, computed colour and font), before and after
  // typing " $BLEU_EDIT_TEXT" at the end of line $BLEU_EDIT_LINE.
  const styledSpans = () =>
    page.evaluate(() => {
      const editor = document.querySelector(".editor-instance");
      const numbers = {};
      for (const n of editor.querySelectorAll(".margin-view-overlays .line-numbers")) {
        const no = Number(n.textContent.trim());
        if (no) numbers[parseFloat(n.parentElement.style.top)] = no - 1;
      }
      const out = [];
      // a wrapped line's further rows carry no number: they belong to the row above
      const rows = [...editor.querySelectorAll(".view-lines .view-line")]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
      let line;
      for (const v of rows) {
        const top = parseFloat(v.style.top);
        if (top in numbers) line = numbers[top];
        for (const span of v.querySelectorAll("span > span")) {
          const st = getComputedStyle(span);
          out.push({
            line, text: span.textContent.replace(/\u00a0/g, " "), cls: span.className,
            color: st.color, bold: Number(st.fontWeight) >= 600, italic: st.fontStyle === "italic",
            underline: st.textDecorationLine.includes("underline"),
          });
        }
      }
      return out;
    });
  async function tokensMode() {
    const marked = async () => (await styledSpans()).filter((s) => s.bold || s.italic);
    out.beforeReady = Boolean(await waitFor(async () => (await marked()).length >= expectHints));
    await page.waitForTimeout(1000);
    out.before = await marked();
    await page.screenshot({ path: env.BLEU_SHOT_OPEN });
    await focusEditor(page);
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(String(editLine + 1));
    await page.keyboard.press("Enter");
    await page.keyboard.press("End");
    await page.keyboard.insertText(" " + editText);
    note("typed");
    out.afterReady = Boolean(await waitFor(async () => (await marked()).some((s) => s.text.trim() === editText && s.bold)));
    await page.waitForTimeout(1000);
    out.after = await marked();
    await page.screenshot({ path: env.BLEU_SHOT_EDIT });
    // The palette toggle: the unmatched words lose their style, the changed word keeps its own.
    await paletteCommand("bleu-ls: Toggle Unmatched-Word Highlighting");
    out.unmatchedOff = Boolean(await waitFor(async () => !(await marked()).some((s) => s.italic), 30000));
    out.whenOff = await marked();
  }

  // What a translator sees (BLEU_MODE=ux): the file as opened, the hover of
  // flagged line $BLEU_EDIT_LINE, typing a word at its end (word by word, as
  // a person types: does a suggestion popup open?), and the report beside
  // the editor with the focus in it (does the status item stay?).
  // BLEU_SHOT_CLIP=editor: screenshots of the editor area only (the README's pictures)
  async function shot(path) {
    if (env.BLEU_SHOT_CLIP === "editor") {
      const box = await page.locator(".editor-instance").first().boundingBox();
      if (box) return page.screenshot({ path, clip: box });
    }
    return page.screenshot({ path });
  }

  // Open the file again (BLEU_REOPEN=1): opened in the window's first
  // seconds, it was plain text when VS Code built its view (the MT
  // languages' wrapping characters come with the next open).
  async function reopen() {
    await waitFor(async () => Object.values(await readLines()).some((t) => HINT.test(t)));
    await paletteCommand("View: Close All Editors");
    await waitFor(async () => !(await page.locator(".editor-instance .view-lines").count()), 10000);
    const escapedFile = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${escapedFile}$`) }).click();
    note("opened again");
  }

  async function uxMode() {
    if (env.BLEU_REOPEN) await reopen();
    const statusTooltip = () =>
      page.evaluate(() => {
        const el = document.getElementById("bleu-ls.bleu-ls.bleuLs.corpusScore");
        if (!el) return null;
        const a = el.querySelector("a") ?? el;
        return { text: el.textContent.trim(), label: el.getAttribute("aria-label") ?? "", title: a.getAttribute("title") ?? "",
                 visible: el.offsetParent !== null };
      });
    out.hintsReady = Boolean(await waitFor(async () => Object.values(await readLines()).filter((t) => HINT.test(t)).length >= expectHints));
    out.statusReady = Boolean(await waitFor(async () => HINT.test((await statusItem())?.text ?? "")));
    // background findings (adequacy) need a few seconds: wait until the tooltip
    // and the Problems item stop changing (the item follows a pull at once, the
    // tooltip ~0.3 s later: a read between the two is no settled state)
    let last = "";
    await waitFor(async () => {
      const t = JSON.stringify([await statusTooltip(), await problemsItem()]);
      const same = t === last;
      last = t;
      // BLEU_WAIT_TIP: a pattern the tooltip must show first (the background findings in it)
      return same && t.includes("In Problems") && (!env.BLEU_WAIT_TIP || new RegExp(env.BLEU_WAIT_TIP).test(t));
    }, env.BLEU_WAIT_TIP ? 150000 : 60000, 3000);
    out.status = await statusTooltip();
    out.problems = await problemsItem();
    // the code lens on line 1, once it counts the flagged lines the tooltip counts
    const flaggedSaid = (out.status?.title || out.status?.label || "").match(/([\d,]+) flagged lines?/)?.[1];
    const lensText = () => page.locator(".editor-instance .codelens-decoration").allTextContents();
    await waitFor(async () => (await lensText()).some((t) => flaggedSaid && t.includes(`${flaggedSaid} flagged`)), 15000, 250);
    out.codeLens = await lensText();
    out.lines = await readLines();
    // rows that hold a score hint and nothing else (a hint wrapped alone)
    const hintAlone = () => page.evaluate(() =>
      [...document.querySelectorAll(".editor-instance .view-lines .view-line")]
        .map((v) => v.textContent.replace(/\u00a0/g, " ").trim())
        .filter((t) => /^BLEU (\d+\.\d|n\/a)$/.test(t)));
    out.hintAloneRows = await hintAlone();
    await shot(env.BLEU_SHOT_OPEN);
    note("opened");

    // the hover of a flagged line, at the cursor (Ctrl+K Ctrl+I)
    await focusEditor(page);
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(String(editLine + 1));
    await page.keyboard.press("Enter");
    await page.keyboard.press("Home");
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = page.locator(".monaco-hover:not(.hidden)").first();
    out.hoverShown = Boolean(await waitFor(async () => (await hover.count()) && (await hover.innerText()).includes("Reference"), 20000));
    out.hover = out.hoverShown ? await hover.innerText() : "";
    await page.waitForTimeout(500);
    await shot(env.BLEU_SHOT_HOVER);
    note("hover");
    await page.keyboard.press("Escape");

    // typing at the end of the line (not of its first wrapped row), key by key
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(`${editLine + 1}:100000`);
    await page.keyboard.press("Enter");
    out.suggestSeen = false;
    for (const ch of " " + editText) {
      await page.keyboard.type(ch, { delay: 60 });
      if (await page.locator(".editor-widget.suggest-widget.visible").count()) out.suggestSeen = true;
    }
    await page.waitForTimeout(1500);
    if (await page.locator(".editor-widget.suggest-widget.visible").count()) out.suggestSeen = true;
    out.afterReady = Boolean(await waitFor(async () => (await styledSpans()).some((s) => s.text.trim() === editText.split(" ").pop() && s.bold), 20000));
    out.typedSpans = (await styledSpans()).filter((s) => s.bold || s.italic);
    out.statusAfterReady = Boolean(await waitFor(async () => (await statusTooltip())?.text !== out.status?.text, 15000));
    out.statusAfter = await statusTooltip();
    out.editedLine = (await readLines())[editLine];
    await shot(env.BLEU_SHOT_EDIT);
    note("typed");

    // the report beside the editor, the focus in it
    await paletteCommand("bleu-ls: Show Report");
    const inner = page.frameLocator("iframe.webview").frameLocator("iframe#active-frame");
    await inner.locator("h1").first().waitFor({ timeout });
    await inner.locator("h1").first().click();
    await page.waitForTimeout(1500);
    out.statusWithReport = await statusTooltip();
    out.hintAloneWithReport = await hintAlone(); // the editor half as wide, the report beside it
    out.reportRows = {};
    await page.screenshot({ path: env.BLEU_SHOT_REPORT });
    note("report");
  }

  // Hints that keep their line (BLEU_MODE=wrap): page through the whole file
  // from the top and, on every screen, read each wrapped row; a row that
  // continues a line and holds only its hint (or a piece of it) is recorded.
  async function wrapMode() {
    const rowsNow = () =>
      page.evaluate(() => {
        const editor = document.querySelector(".editor-instance");
        const numbers = {};
        for (const n of editor.querySelectorAll(".margin-view-overlays .line-numbers")) {
          const no = Number(n.textContent.trim());
          if (no) numbers[parseFloat(n.parentElement.style.top)] = no - 1;
        }
        const rows = [...editor.querySelectorAll(".view-lines .view-line")]
          .map((v) => [parseFloat(v.style.top), v.textContent.replace(/\u00a0/g, " ")])
          .sort((a, b) => a[0] - b[0]);
        const lines = {};
        let current = null;
        for (const [top, text] of rows) {
          if (top in numbers) {
            current = numbers[top];
            lines[current] = [text];
          } else if (current !== null) {
            lines[current].push(text);
          }
        }
        return lines;
      });
    const hinted = (rows) => HINT.test(rows.join(""));
    const aloneIn = (seen, keys) => keys.filter((k) => {
      const label = seen[k].join("").match(/BLEU (\d+\.\d|n\/a)\s*$/)?.[0].trim();
      return label && seen[k].slice(1).some((r) => r.trim() && label.endsWith(r.trim()));
    });
    out.hintsReady = Boolean(await waitFor(async () => Object.values(await rowsNow()).filter(hinted).length >= expectHints));
    // Opened in the window's first seconds, before VS Code has read the
    // extension's languages, the file was plain text when its view was
    // built: VS Code keeps the break characters of that moment (recorded
    // here), so the file is closed and opened again, as a user opens it.
    await page.waitForTimeout(1000);
    const first = await rowsNow();
    out.firstOpenAlone = aloneIn(first, Object.keys(first).map(Number).sort((a, b) => a - b).slice(0, -1));
    await page.screenshot({ path: env.BLEU_SHOT_FIRST ?? "/dev/null" });
    await reopen();
    out.hintsReady = Boolean(await waitFor(async () => Object.values(await rowsNow()).filter(hinted).length >= expectHints));
    await page.waitForTimeout(1000);
    await shot(env.BLEU_SHOT_OPEN);
    await focusEditor(page);
    const steps = await page.evaluate(() => {
      const editor = document.querySelector(".editor-instance .monaco-scrollable-element.editor-scrollable");
      const row = document.querySelector(".editor-instance .view-lines .view-line");
      return Math.max(1, Math.floor((0.6 * editor.clientHeight) / row.offsetHeight));
    });
    out.rows = {};
    const pages = Number(env.BLEU_PAGES ?? "200");
    let shotAlone = false;
    for (let p = 0; p < pages; p++) {
      // every numbered line on screen with its hint (the last one may be cut off)
      await waitFor(async () => {
        const seen = Object.values(await rowsNow());
        return seen.slice(0, -1).every(hinted);
      }, 10000);
      await page.waitForTimeout(300);
      const seen = await rowsNow();
      const keys = Object.keys(seen).map(Number).sort((a, b) => a - b);
      const atEnd = keys.length && keys[keys.length - 1] >= expectLines - 1;
      const whole = atEnd ? keys : keys.slice(0, -1);
      for (const k of whole) {
        if (hinted(seen[k])) out.rows[k] = seen[k];
      }
      const alone = aloneIn(seen, whole).length > 0;
      if (alone && !shotAlone && env.BLEU_SHOT_ALONE) {
        shotAlone = true;
        await page.screenshot({ path: env.BLEU_SHOT_ALONE });
      }
      if (atEnd) break;
      // scroll by 60 % of the rows (Ctrl+Down): a line cut at the bottom is whole on the next screen
      for (let k = 0; k < steps; k++) await page.keyboard.press("Control+ArrowDown");
    }
    note(`paged through ${Object.keys(out.rows).length} lines`);
  }


// Profiles of the typing bursts (BLEU_PROFILE_DIR set): the workbench page's
// CPU profile through CDP, and the extension host's (a node process under
// $BLEU_CODE_SERVER_PID, its inspector opened with SIGUSR1 on
// $BLEU_EXTHOST_INSPECT_PORT's default 9229) through its inspector websocket.
async function startProfiles() {
  const dir = env.BLEU_PROFILE_DIR;
  if (!dir) return null;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  let ext = null;
  try {
    const ps = execSync("ps -eo pid=,ppid=,args=", { encoding: "utf8" })
      .split("\n")
      .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)?.slice(1))
      .filter(Boolean);
    const kids = (pid) => ps.filter((r) => r[1] === pid).map((r) => r[0]);
    const under = new Set([env.BLEU_CODE_SERVER_PID]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const p of [...under]) for (const k of kids(p)) if (!under.has(k)) { under.add(k); grew = true; }
    }
    const host = ps.find((r) => under.has(r[0]) && /extensionHost/.test(r[2] ?? ""));
    if (host) {
      process.kill(Number(host[0]), "SIGUSR1");
      await new Promise((r) => setTimeout(r, 1000));
      const list = await (await fetch("http://127.0.0.1:9229/json/list")).json();
      const WebSocket = createRequire(import.meta.url)("ws");
      const ws = new WebSocket(list[0].webSocketDebuggerUrl);
      await new Promise((r, j) => { ws.once("open", r); ws.once("error", j); });
      let id = 0;
      const waiting = new Map();
      ws.on("message", (m) => { const d = JSON.parse(m); if (waiting.has(d.id)) { waiting.get(d.id)(d.result); waiting.delete(d.id); } });
      const send = (method, params = {}) => new Promise((r) => { waiting.set(++id, r); ws.send(JSON.stringify({ id, method, params })); });
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: 500 });
      await send("Profiler.start");
      ext = { ws, send, pid: host[0] };
      note(`extension host ${host[0]} profiled`);
    } else {
      note(`extension host not found among ${[...under].map((p) => (ps.find((r) => r[0] === p)?.[2] ?? "").slice(0, 90)).join(" | ")}`);
    }
  } catch (err) {
    note(`extension host profile failed: ${err}`);
  }
  return { cdp, ext, dir, wall: Date.now() };
}
async function stopProfiles(p) {
  if (!p) return;
  const r = await p.cdp.send("Profiler.stop");
  writeFileSync(`${p.dir}/renderer.cpuprofile`, JSON.stringify(r.profile));
  if (p.ext) {
    const e = await p.ext.send("Profiler.stop");
    writeFileSync(`${p.dir}/exthost.cpuprofile`, JSON.stringify(e.profile));
    p.ext.ws.close();
  }
  out.profileWallStart = p.wall;
}

  // Renderer long tasks (PerformanceObserver 'longtask', BLEU_MODE=large):
  // [start (ms since the epoch), duration (ms)].
  const installLongTasks = () =>
    page.evaluate(() => {
      window.__bleuLongTasks = null;
      try {
        window.__bleuLongTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__bleuLongTasks.push([performance.timeOrigin + e.startTime, e.duration]);
        }).observe({ type: "longtask", buffered: true });
      } catch {
        window.__bleuLongTasks = null;
      }
    });
  // the long tasks that overlap [from, to] (wall clock), or null without the observer
  const longTasks = (from, to) =>
    page.evaluate(([a, b]) => window.__bleuLongTasks && window.__bleuLongTasks.filter(([s, d]) => s < b && s + d > a), [from, to]);

  // A large pair (BLEU_MODE=large), at VS Code's defaults: answer the
  // large-file prompt ("Open Anyway") if it comes and time from there (else
  // from the click in the explorer) to the first hint on screen; go to line
  // $BLEU_JUMP_LINE and time its hint; then type bursts of keys mid-line at
  // $BLEU_KEY_DELAY_MS between keys and time, from the last key of each
  // burst, until the line's hint shows $BLEU_BURST_LABELS[j].  The
  // renderer's long tasks while opening and while typing are kept.
  async function largeMode(explorerClickAt) {
    const jumpLine = Number(env.BLEU_JUMP_LINE);
    const bursts = JSON.parse(env.BLEU_BURSTS);
    const labels = JSON.parse(env.BLEU_BURST_LABELS);
    const delay = Number(env.BLEU_KEY_DELAY_MS ?? "125");
    const labelOf = async (line) => {
      const t = (await readLines())[line];
      const m = t ? t.match(/BLEU (\d+\.\d|n\/a)\s*$/) : null;
      return m ? m[0].trim() : null;
    };
    const openAnyway = page.locator(".monaco-button", { hasText: /^Open Anyway$/ });
    const shown = await waitFor(async () => {
      if (await openAnyway.count()) return "prompt";
      return (await page.locator(".editor-instance .view-lines .view-line").count()) ? "editor" : null;
    }, timeout, 10);
    let start = explorerClickAt;
    out.openAnyway = shown === "prompt";
    if (out.openAnyway) {
      note("large-file prompt");
      await openAnyway.first().click();
      start = Date.now();
      note("Open Anyway");
    }
    // open -> the file on screen -> its first hints (the server starts with the first file)
    await waitFor(textShown, timeout, 10);
    out.editorShownMs = Date.now() - start;
    note("editor shown");
    out.firstHintsOk = Boolean(await waitFor(async () => Object.values(await readLines()).some((t) => HINT.test(t)), timeout, 10));
    out.firstHintsMs = Date.now() - start;
    out.openLongTasks = (await longTasks(start, Date.now())) ?? [];
    note("first hints");
    await focusEditor(page);
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(String(jumpLine + 1));
    start = Date.now();
    await page.keyboard.press("Enter");
    const jumped = await waitFor(async () => (await labelOf(jumpLine)) === env.BLEU_JUMP_LABEL, timeout, 10);
    out.jumpMs = Date.now() - start;
    out.jumpLabel = await labelOf(jumpLine);
    out.jumpOk = Boolean(jumped);
    note(`jump ${out.jumpOk}`);
    // Typing is timed once the file is scored (the status item shows the
    // corpus score): right after opening, the first pass has both cores.
    start = Date.now();
    out.statusReady = Boolean(await waitFor(async () => HINT.test((await statusItem())?.text ?? ""), timeout, 50));
    out.scoredMs = Date.now() - start;
    note("scored");
    // Mid-line: Go to Line/Column $BLEU_JUMP_LINE:$BLEU_COLUMN (1-based UTF-16
    // column; End would stop at the end of a wrapped row).
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(`${jumpLine + 1}:${env.BLEU_COLUMN}`);
    await page.keyboard.press("Enter");
    await page.waitForTimeout(500);
    const profiles = await startProfiles();
    out.burstMs = [];
    out.burstLabels = [];
    out.burstAt = []; // wall clock (ms since the epoch) of each burst's last key and of its hint showing
    out.keyAt = []; // wall clock of every key, for lining up with a server-side timeline
    const typingFrom = Date.now();
    for (let j = 0; j < bursts.length; j++) {
      const keys = [...bursts[j]];
      for (let k = 0; k < keys.length; k++) {
        if (k) {
          const wait = out.keyAt[out.keyAt.length - 1] + delay - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        out.keyAt.push(Date.now());
        await page.keyboard.type(keys[k]);
      }
      start = Date.now(); // the burst's last key
      const ok = await waitFor(async () => (await labelOf(jumpLine)) === labels[j], 30000, 10);
      out.burstMs.push(ok ? Date.now() - start : null);
      out.burstAt.push([start, Date.now()]);
      out.burstLabels.push(await labelOf(jumpLine));
      await page.waitForTimeout(400);
    }
    out.typingLongTasks = await longTasks(typingFrom, Date.now());
    await stopProfiles(profiles);
    out.lineText = (await readLines())[jumpLine];
    // The typed words are new against the draft (the text as first opened):
    // each shows in the changed-word style.
    const typed = bursts.map((b) => b.trim());
    const changed = async () =>
      new Set((await styledSpans()).filter((s) => s.line === jumpLine && s.bold).map((s) => s.text.trim()));
    start = Date.now();
    out.typedHighlighted = Boolean(await waitFor(async () => {
      const words = await changed();
      return typed.every((w) => words.has(w));
    }, 60000, 50));
    out.highlightMs = Date.now() - start;
    out.changedWords = [...(await changed())];
    out.typedStyles = (await styledSpans()).filter((s) => s.line === jumpLine && typed.includes(s.text.trim()));
    await page.screenshot({ path: env.BLEU_SHOT_EDIT });
    note("bursts done");
  }

  // Opening large files (BLEU_MODE=open), as a user does in a window that is
  // up: first wait until the server answered `initialize` ($BLEU_SETTLE_FILE,
  // the relay's timeline, holds an `initialized` row after byte
  // $BLEU_SETTLE_FROM; at most 30 s, the wait is recorded), then open each of
  // $BLEU_OPEN_FILES in turn from the explorer, answer the large-file prompt
  // and time from "Open Anyway" (else from the click) to the text on screen
  // and, for files that get hints, to the first hint; the renderer's long
  // tasks over the first 3 s after it are kept.  All editors are closed
  // between two files.
  async function settle() {
    if (!env.BLEU_SETTLE_FILE) return;
    const from = Number(env.BLEU_SETTLE_FROM ?? "0");
    const t = Date.now();
    out.settled = Boolean(await waitFor(async () => {
      try {
        return readFileSync(env.BLEU_SETTLE_FILE, "utf8").slice(from).includes('"method": "initialized"');
      } catch {
        return false;
      }
    }, 30000, 50));
    out.settleMs = Date.now() - t;
    note(`settled ${out.settled}`);
  }
  async function openOne(name, hinted) {
    const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${esc}$`) }).click();
    let start = Date.now();
    const openAnyway = page.locator(".monaco-button", { hasText: /^Open Anyway$/ });
    const shown = await waitFor(async () => {
      if (await openAnyway.count()) return "prompt";
      return (await page.locator(".editor-instance .view-lines .view-line").count()) ? "editor" : null;
    }, timeout, 10);
    const r = { name, prompt: shown === "prompt" };
    if (r.prompt) {
      await openAnyway.first().click();
      start = Date.now();
    }
    r.at = start;
    await waitFor(textShown, timeout, 10);
    r.textMs = Date.now() - start;
    if (hinted) {
      const ok = await waitFor(async () => Object.values(await readLines()).some((t) => HINT.test(t)), timeout, 10);
      r.hintMs = ok ? Date.now() - start : null;
      r.hinted = Object.fromEntries(Object.entries(await readLines()).filter(([, t]) => HINT.test(t)));
    }
    const rest = start + 3000 - Date.now();
    if (rest > 0) await page.waitForTimeout(rest);
    r.longTasks = (await longTasks(start, start + 3000)) ?? [];
    note(`${name}: text ${r.textMs} ms, hint ${r.hintMs ?? "-"} ms`);
    await paletteCommand("View: Close All Editors");
    await waitFor(async () => !(await page.locator(".editor-instance .view-lines").count()), 10000);
    await page.waitForTimeout(1000);
    return r;
  }
  async function openMode() {
    await installLongTasks();
    await settle();
    out.opens = [];
    for (const [name, hinted] of JSON.parse(env.BLEU_OPEN_FILES)) {
      // BLEU_PROFILE_DIR: CPU profiles of the renderer and the extension host over the first open with hints
      const profiles = hinted && !out.opens.some((o) => o.hintMs !== undefined) ? await startProfiles() : null;
      out.opens.push(await openOne(name, hinted));
      await stopProfiles(profiles);
    }
  }

  await page.goto(url);
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout });
  note("workbench");
  if (env.BLEU_MODE === "large") await installLongTasks();
  if (env.BLEU_MODE === "open") {
    await openMode();
    throw { done: true };
  }
  await settle(); // (BLEU_SETTLE_FILE: a window that is up)
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${escaped}$`) }).click();
  const explorerClickAt = Date.now();
  note("clicked");

  if (env.BLEU_MODE === "notification") {
    // The server cannot start: read the error toast the extension shows.
    const toast = page.locator(".notification-toast", { hasText: env.BLEU_NOTIFICATION_TEXT ?? "bleu-ls" }).first();
    try {
      await toast.waitFor({ timeout });
      await page.waitForTimeout(500);
      out.notification = await toast.locator(".notification-list-item-message").first().textContent();
      out.notificationButtons = await toast.locator(".monaco-button").allTextContents();
    } finally {
      out.toasts = await page.locator(".notification-toast .notification-list-item-message").allTextContents();
    }
    out.lines = await readLines();
    await page.screenshot({ path: env.BLEU_SHOT_OPEN });
    if (env.BLEU_CLICK_BUTTON) {
      // a button of the message, then what the panel it opens shows
      await toast.locator(".monaco-button", { hasText: env.BLEU_CLICK_BUTTON }).first().click();
      const panel = page.locator(".part.panel .monaco-editor .view-lines");
      await panel.first().waitFor({ timeout });
      out.panelText = await waitFor(async () => {
        const t = (await panel.first().innerText().catch(() => "")).replace(/\u00a0/g, " ");
        return t.trim() ? t : null;
      }, 15000);
      await page.screenshot({ path: env.BLEU_SHOT_CLICK ?? "/dev/null" });
    }
    throw { done: true };
  }

  if (env.BLEU_MODE === "managed") {
    // The extension sets up its own server: watch the progress notification
    // (each step it names) until the hints show; time both from the click.
    const clickedAt = Date.now();
    out.progress = [];
    let shot = false;
    out.hintsReady = Boolean(
      await waitFor(async () => {
        const toasts = await page
          .locator(".notification-toast .notification-list-item-message")
          .allTextContents()
          .catch(() => []);
        for (const t of toasts) {
          const text = t.replace(/\s+/g, " ").trim();
          if (/^bleu-ls setup/.test(text) && !out.progress.some((p) => p.text === text)) {
            out.progress.push({ ms: Date.now() - clickedAt, text });
            if (!shot && env.BLEU_SHOT_PROGRESS) {
              shot = true;
              await page.screenshot({ path: env.BLEU_SHOT_PROGRESS });
            }
          }
          if (/bleu-ls (needs|could not|cannot)/.test(text)) {
            out.failure = text;
            return true;
          }
        }
        const lines = await readLines();
        return Object.values(lines).filter((t) => HINT.test(t)).length >= expectHints;
      }, timeout, 100),
    ) && !out.failure;
    out.hintsMs = Date.now() - clickedAt;
    out.lines = await readLines();
    note(`hints ${out.hintsReady}`);
    await page.screenshot({ path: env.BLEU_SHOT_OPEN });
    throw { done: true };
  }

  if (env.BLEU_MODE === "large") {
    await largeMode(explorerClickAt);
    throw { done: true };
  }

  if (env.BLEU_MODE === "tokens") {
    await tokensMode();
    throw { done: true };
  }

  if (env.BLEU_MODE === "wrap") {
    await wrapMode();
    throw { done: true };
  }

  if (env.BLEU_MODE === "ux") {
    await uxMode();
    throw { done: true };
  }

  out.hintsReady = Boolean(
    await waitFor(async () => {
      const lines = await readLines();
      return Object.values(lines).filter((t) => HINT.test(t)).length >= expectHints;
    }),
  );
  out.lines = await readLines();
  note(`hints ${out.hintsReady}`);

  out.statusReady = Boolean(await waitFor(async () => HINT.test((await statusItem())?.text ?? "")));
  out.status = await statusItem();

  if (env.BLEU_MODE === "report") {
    // "bleu-ls: Show Report": the report of the pair in a webview beside the
    // editor; a click on a listed line moves the cursor to that line.
    await paletteCommand("bleu-ls: Show Report");
    note("report command");
    const inner = page.frameLocator("iframe.webview").frameLocator("iframe#active-frame");
    await inner.locator("#bleu-ls-data").waitFor({ state: "attached", timeout });
    await inner.locator("h1").first().waitFor({ timeout });
    note("report shown");
    out.reportTitle = await inner.locator("h1").first().textContent();
    out.reportData = await inner.locator("#bleu-ls-data").textContent();
    out.reportText = await inner.locator("body").innerText();
    await page.screenshot({ path: env.BLEU_SHOT_REPORT });
    const target = inner.locator("[data-line]").first();
    out.clickedLine = Number(await target.getAttribute("data-line"));
    await target.scrollIntoViewIfNeeded();
    await target.click();
    const cursor = () => page.evaluate(() => document.getElementById("status.editor.selection")?.textContent?.trim() ?? "");
    out.cursor = await waitFor(async () => {
      const t = await cursor();
      return t.startsWith(`Ln ${out.clickedLine},`) ? t : null;
    }, 15000);
    out.cursor = out.cursor ?? (await cursor());
    await page.screenshot({ path: env.BLEU_SHOT_REPORT_CLICK });
    note("clicked a line");
    throw { done: true };
  }
  out.problemsReady = Boolean(await waitFor(async () => /Errors|Warnings/.test((await problemsItem()) ?? "")));
  // Let the last diagnostics land, then read the count.
  await page.waitForTimeout(1000);
  out.problems = await problemsItem();
  await waitFor(async () => (await page.locator(".editor-instance .codelens-decoration").count()) > 0, 15000);
  out.codeLens = await page.locator(".editor-instance .codelens-decoration").allTextContents();
  note("status read");
  await page.screenshot({ path: env.BLEU_SHOT_OPEN });

  // Replace one line by typing: Go to Line, select it, insert the new text.
  await focusEditor(page);
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { timeout });
  await page.keyboard.type(String(editLine + 1));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  const before = out.lines[editLine];
  await page.keyboard.insertText(editText);
  note("typed");
  const after = await waitFor(async () => {
    const t = (await readLines())[editLine];
    return t && t.startsWith(editText) && HINT.test(t.slice(editText.length)) && t !== before ? t : null;
  });
  out.editedLine = after ?? (await readLines())[editLine];
  note(`edited ${Boolean(after)}`);
  const statusBefore = out.status?.text;
  out.statusAfterReady = Boolean(await waitFor(async () => {
    const s = await statusItem();
    return s && s.text !== statusBefore;
  }, 15000));
  out.statusAfter = await statusItem();

  // A palette command that changes a setting (bleuLs.hints.enabled): the
  // change reaches the server live, the hints go, and come back.
  async function paletteCommand(title) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ timeout });
    await input.fill(`>${title}`);
    await page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first().waitFor({ timeout });
    await page.keyboard.press("Enter");
  }
  const countHints = async () => Object.values(await readLines()).filter((t) => HINT.test(t)).length;
  await paletteCommand("bleu-ls: Toggle Score Hints");
  note("toggled off");
  // Off: every line still rendered, none with a hint.
  out.hintsOff = Boolean(await waitFor(async () => {
    const lines = Object.values(await readLines());
    return lines.length >= expectHints && lines.every((t) => !HINT.test(t));
  }, 30000));
  out.linesWhenOff = await readLines();
  out.hintsWhenOff = await countHints();
  await paletteCommand("bleu-ls: Toggle Score Hints");
  note("toggled on");
  out.hintsOn = Boolean(await waitFor(async () => (await countHints()) >= expectHints, 30000));
  out.hintsWhenOn = await countHints();

  await page.keyboard.press("Control+Shift+M");
  await page.waitForSelector(".markers-panel .monaco-list-row", { timeout });
  await page.waitForTimeout(500);
  out.problemRows = await page
    .locator(".markers-panel .monaco-list-row")
    .evaluateAll((els) => els.map((e) => [e.getAttribute("aria-label") ?? "", e.textContent ?? ""]));
  out.problemsAfter = await problemsItem();
  await page.screenshot({ path: env.BLEU_SHOT_EDIT });
  note("done");
} catch (err) {
  if (!err?.done) {
    out.error = String(err?.stack ?? err);
    await page?.screenshot({ path: env.BLEU_SHOT_ERROR ?? "/dev/null" }).catch(() => {});
  }
} finally {
  await browser.close();
  writeFileSync(env.BLEU_OUT, JSON.stringify(out, null, 1));
}
