// Drives code-server (VS Code 1.100 in headless Chromium) for
// tests/editors/test_vscode_terms.py: opens $BLEU_FILE (a catalogue in a workspace with a
// glossary) from the explorer and waits for the Problems count $BLEU_WANT_OPEN.  With
// $BLEU_EDIT_TEXT: selects $BLEU_EDIT_LEN characters at line $BLEU_EDIT_LINE, column
// $BLEU_EDIT_COL (0-based), types the text over them and waits (up to $BLEU_EDIT_WAIT_MS)
// for the count $BLEU_WANT_FLAGGED and a squiggle on that line; stops there if they do not
// come.  Then, with the word $BLEU_FLAGGED_WORD at that place: reads where the squiggle and
// the word are drawn, the Problems panel's rows, the hover at the word (Ctrl+K Ctrl+I), opens
// the quick fixes (Ctrl+.), picks $BLEU_FIX_TITLE, waits for $BLEU_FIXED_WORD in the line
// and (up to $BLEU_FIX_WAIT_MS) for the count $BLEU_WANT_FIXED without a squiggle there, and
// saves the file (Ctrl+S) at $BLEU_PATH.  Screenshots $BLEU_SHOT_{OPEN,EDIT,PROBLEMS,HOVER,MENU,FIXED};
// what it saw as JSON in $BLEU_OUT.  Every wait has a deadline.
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const env = process.env;
const timeout = Number(env.BLEU_TIMEOUT_MS ?? "120000");
const editLine = Number(env.BLEU_EDIT_LINE);
const editCol = Number(env.BLEU_EDIT_COL);
const editLen = Number(env.BLEU_EDIT_LEN);
const editText = env.BLEU_EDIT_TEXT;
const out = { events: [] };
const t0 = Date.now();
const note = (what) => out.events.push(`${Date.now() - t0} ms ${what}`);

async function waitFor(fn, ms = timeout, every = 150) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, every));
  }
  return last;
}

async function focusEditor(page) {
  const line = page.locator(".editor-instance .view-lines .view-line").first();
  await line.waitFor({ timeout });
  const ok = await waitFor(() => line.click({ force: true, timeout: 1000 }).then(() => true, () => false));
  if (!ok) await line.click({ force: true });
}

const browser = await chromium.launch({
  executablePath: env.BLEU_CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let page;
try {
  page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  page.on("pageerror", (e) => note(`pageerror ${e.message}`));
  const problemsItem = () =>
    page.evaluate(() => document.getElementById("status.problems")?.getAttribute("aria-label") ?? "");
  // The drawn row of line `line` (0-based): its text, the box of `word` in it, and the
  // squiggles drawn on that row (their kind and horizontal extent), in page pixels.
  const row = (line, word) =>
    page.evaluate(([line, word]) => {
      const editor = document.querySelector(".editor-instance");
      if (!editor) return null;
      let top = null;
      for (const n of editor.querySelectorAll(".margin-view-overlays .line-numbers")) {
        if (Number(n.textContent.trim()) === line + 1) top = parseFloat(n.parentElement.style.top);
      }
      if (top === null) return null;
      const view = [...editor.querySelectorAll(".view-lines .view-line")].find((v) => parseFloat(v.style.top) === top);
      if (!view) return null;
      const text = view.textContent.replace(/\u00a0/g, " ");
      let wordBox = null;
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent.indexOf(word);
        if (at >= 0) {
          const r = document.createRange();
          r.setStart(n, at);
          r.setEnd(n, at + word.length);
          const b = r.getBoundingClientRect();
          wordBox = { left: b.left, right: b.right };
          break;
        }
      }
      const squiggles = [];
      for (const o of editor.querySelectorAll(".view-overlays > div")) {
        if (parseFloat(o.style.top) !== top) continue;
        for (const d of o.querySelectorAll("[class*='squiggly-']")) {
          const b = d.getBoundingClientRect();
          squiggles.push({ cls: d.className, left: b.left, right: b.right });
        }
      }
      return { text, wordBox, squiggles };
    }, [line, word]);
  const goto = async (spec) => {
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(spec);
    await page.keyboard.press("Enter");
  };

  await page.goto(env.BLEU_URL);
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout });
  const escaped = env.BLEU_FILE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${escaped}$`) }).click();
  note("clicked");
  await focusEditor(page);
  out.openReady = Boolean(await waitFor(async () => (await problemsItem()) === env.BLEU_WANT_OPEN));
  out.problemsOpen = await problemsItem();
  note(`open ${out.openReady}`);
  await goto(`${editLine + 1}:${editCol + 1}`);
  await page.waitForTimeout(300);
  out.before = await row(editLine, env.BLEU_FLAGGED_WORD);
  await page.screenshot({ path: env.BLEU_SHOT_OPEN });

  const flaggedShown = async () => {
    const r = await row(editLine, env.BLEU_FLAGGED_WORD);
    return (await problemsItem()) === env.BLEU_WANT_FLAGGED && r && r.wordBox && r.squiggles.length > 0;
  };
  if (editText) {
    // the translator types the word
    for (let k = 0; k < editLen; k++) await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.insertText(editText);
    note("typed");
    await page.keyboard.press("Escape");  // (a suggestion list VS Code may have opened while typing)
    out.editedReady = Boolean(await waitFor(flaggedShown, Number(env.BLEU_EDIT_WAIT_MS ?? timeout)));
    out.problemsEdited = await problemsItem();
    out.edited = await row(editLine, env.BLEU_FLAGGED_WORD);
    note(`edited ${out.editedReady}`);
    await page.screenshot({ path: env.BLEU_SHOT_EDIT });
    if (!out.editedReady) throw { done: true };
  }
  await page.waitForTimeout(500);
  out.flagged = await row(editLine, env.BLEU_FLAGGED_WORD);
  out.problemsFlagged = await problemsItem();

  // the Problems panel, narrowed to the finding's code by its filter box
  await page.keyboard.press("Control+Shift+M");
  await page.waitForSelector(".markers-panel .monaco-list-row", { timeout });
  const filter = page.locator(".markers-panel-action-filter input, .viewpane-filter input").first();
  if (await filter.count()) {
    await filter.fill(env.BLEU_FILTER);
  }
  out.problemRows = await waitFor(async () => {
    const rows = await page.locator(".markers-panel .monaco-list-row")
      .evaluateAll((els) => els.map((e) => [e.getAttribute("aria-label") ?? "", e.textContent ?? ""]));
    const items = rows.filter(([label]) => !/^\d+ problems? in file/.test(label));  // (the file's own row)
    return items.length > 0 && items.every(([, t]) => t.includes(env.BLEU_FILTER)) ? rows : null;
  }, 30000);
  await page.waitForTimeout(300);
  await page.screenshot({ path: env.BLEU_SHOT_PROBLEMS });
  note("problems");
  await page.keyboard.press("Control+Shift+M");  // back to the editor (the panel closes)

  // the hover at the word, at the cursor (Ctrl+K Ctrl+I)
  await focusEditor(page);
  await goto(`${editLine + 1}:${editCol + 3}`);
  await page.keyboard.press("Control+K");
  await page.keyboard.press("Control+I");
  const hover = page.locator(".monaco-hover:not(.hidden)").first();
  out.hoverShown = Boolean(await waitFor(async () => (await hover.count()) && (await hover.innerText()).includes("Glossary:"), 30000));
  await page.waitForTimeout(500);
  if (out.hoverShown) {
    out.hover = await hover.innerText();
    // how the Markdown was rendered: the bold and the struck-through words
    out.hoverStrong = await hover.locator("strong, b").allTextContents();
    out.hoverStruck = await hover.locator("del, s, strike").allTextContents();
  }
  await page.screenshot({ path: env.BLEU_SHOT_HOVER });
  note("hover");
  await page.keyboard.press("Escape");

  // the quick fix, from the lightbulb menu (Ctrl+.)
  await goto(`${editLine + 1}:${editCol + 3}`);
  await page.keyboard.press("Control+Period");
  const item = page.locator(".action-widget .monaco-list-row", { hasText: env.BLEU_FIX_TITLE }).first();
  await item.waitFor({ timeout: 30000 });
  out.menu = await page.locator(".action-widget .monaco-list-row").allInnerTexts();
  await page.screenshot({ path: env.BLEU_SHOT_MENU });
  // chosen with the keys (the menu's focus moved to it, Enter applies)
  const focused = page.locator(".action-widget .monaco-list-row.focused");
  for (let k = 0; k < out.menu.length && (await focused.getAttribute("aria-label").catch(() => "")) !== env.BLEU_FIX_TITLE; k++) {
    await page.keyboard.press("ArrowDown");
  }
  out.menuChosen = await focused.getAttribute("aria-label").catch(() => "");
  await page.keyboard.press("Enter");
  note("fix chosen");
  out.fixedText = Boolean(await waitFor(async () => (await row(editLine, env.BLEU_FIXED_WORD))?.wordBox, 30000));
  out.findingGone = Boolean(await waitFor(async () => {
    const r = await row(editLine, env.BLEU_FIXED_WORD);
    return (await problemsItem()) === env.BLEU_WANT_FIXED && r && r.squiggles.length === 0;
  }, Number(env.BLEU_FIX_WAIT_MS ?? timeout)));
  out.problemsFixed = await problemsItem();
  out.fixed = await row(editLine, env.BLEU_FIXED_WORD);
  await page.waitForTimeout(300);
  await page.screenshot({ path: env.BLEU_SHOT_FIXED });
  // saved (the editor focused first: the menu's closing may leave the focus elsewhere), for the
  // test to compare the file with the original; done when the line on disk has the word
  const onDisk = () => readFileSync(env.BLEU_PATH, "utf8").split("\n")[editLine].includes(env.BLEU_FIXED_WORD);
  await page.locator(".editor-instance .view-lines").first().click({ force: true, position: { x: 5, y: 5 } }).catch(() => {});
  await page.keyboard.press("Control+S");
  out.saved = Boolean(await waitFor(async () => onDisk(), 30000));
  note(`saved ${out.saved}`);
} catch (err) {
  if (!err?.done) {
    out.error = String(err?.stack ?? err);
    await page?.screenshot({ path: env.BLEU_SHOT_ERROR ?? "/dev/null" }).catch(() => {});
  }
} finally {
  await browser.close();
  writeFileSync(env.BLEU_OUT, JSON.stringify(out, null, 1));
}
