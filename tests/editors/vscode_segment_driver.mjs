// Drives code-server (VS Code 1.100 in headless Chromium) for
// tests/editors/test_vscode_segments.py: opens $BLEU_FILE (a segment file: .po,
// .xlf) from the explorer, waits for the score hints, replaces
// $BLEU_EDIT_LEN characters at line $BLEU_EDIT_LINE, column $BLEU_EDIT_COL (0-based)
// by $BLEU_EDIT_TEXT, waits for the hint of line $BLEU_HINT_LINE to show HTER and
// for the typed words to be styled, opens the hover there, and saves screenshots.
// Writes what it saw as JSON to $BLEU_OUT.  Every wait has a deadline.
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const env = process.env;
const timeout = Number(env.BLEU_TIMEOUT_MS ?? "60000");
const editLine = Number(env.BLEU_EDIT_LINE);
const editCol = Number(env.BLEU_EDIT_COL);
const editLen = Number(env.BLEU_EDIT_LEN);
const editText = env.BLEU_EDIT_TEXT;
const hintLine = Number(env.BLEU_HINT_LINE);
const out = { events: [] };
const t0 = Date.now();
const note = (what) => out.events.push(`${Date.now() - t0} ms ${what}`);
const HINT = /BLEU (\d+\.\d|n\/a)/;

async function waitFor(fn, ms = timeout, every = 100) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
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
  page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  page.on("pageerror", (e) => note(`pageerror ${e.message}`));
  // the visible rows of the editor, by line (0-based): rendered text, hints included, and styled spans
  const view = () =>
    page.evaluate(() => {
      const editor = document.querySelector(".editor-instance");
      if (!editor) return { lines: {}, spans: [] };
      const numbers = {};
      for (const n of editor.querySelectorAll(".margin-view-overlays .line-numbers")) {
        const no = Number(n.textContent.trim());
        if (no) numbers[parseFloat(n.parentElement.style.top)] = no - 1;
      }
      const rows = [...editor.querySelectorAll(".view-lines .view-line")].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
      const lines = {};
      const spans = [];
      let line = null;
      for (const v of rows) {
        const top = parseFloat(v.style.top);
        const text = v.textContent.replace(/\u00a0/g, " ");
        if (top in numbers) {
          line = numbers[top];
          lines[line] = text;
        } else if (line !== null) {
          lines[line] += text;
        }
        for (const span of v.querySelectorAll("span > span")) {
          const st = getComputedStyle(span);
          if (Number(st.fontWeight) >= 600 || st.fontStyle === "italic") {
            spans.push({ line, text: span.textContent.replace(/\u00a0/g, " "), color: st.color, bold: Number(st.fontWeight) >= 600 });
          }
        }
      }
      return { lines, spans };
    });
  const goto = async (spec) => {
    await page.keyboard.press("Control+G");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(spec);
    await page.keyboard.press("Enter");
  };

  await page.goto(env.BLEU_URL);
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout });
  if (env.BLEU_FILE.includes("/")) {
    // a file in a folder: Quick Open by its path
    await page.locator(".explorer-folders-view .monaco-list-row").first().click();
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { timeout });
    await page.keyboard.type(env.BLEU_FILE);
    const base = env.BLEU_FILE.split("/").pop();
    await page.locator(".quick-input-widget .monaco-list-row", { hasText: base }).first().waitFor({ timeout });
    await page.waitForTimeout(300);
    await page.keyboard.press("Enter");
  } else {
    const escaped = env.BLEU_FILE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${escaped}$`) }).click();
  }
  note("clicked");
  await page.locator(".editor-instance .view-lines .view-line").first().waitFor({ timeout });
  await focusEditor(page);
  await goto(`${editLine + 1}:${editCol + 1}`);
  out.hintsReady = Boolean(await waitFor(async () => HINT.test((await view()).lines[hintLine] ?? "")));
  await page.waitForTimeout(1000);
  const before = await view();
  out.before = { line: before.lines[hintLine], editLine: before.lines[editLine], spans: before.spans };
  note("hints");
  await page.screenshot({ path: env.BLEU_SHOT_OPEN });

  for (let k = 0; k < editLen; k++) await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.insertText(editText);
  note("typed");
  const words = editText.split(/\s+/).filter(Boolean);
  out.afterReady = Boolean(await waitFor(async () => {
    const v = await view();
    return /HTER/.test(v.lines[hintLine] ?? "") && words.every((w) => v.spans.some((s) => s.bold && s.text.includes(w)));
  }));
  await page.waitForTimeout(1000);
  const after = await view();
  out.after = { line: after.lines[hintLine], editLine: after.lines[editLine], spans: after.spans };
  await page.screenshot({ path: env.BLEU_SHOT_EDIT });
  note("edited");

  // the hover of the edited segment, at the cursor (Ctrl+K Ctrl+I)
  await page.keyboard.press("Control+K");
  await page.keyboard.press("Control+I");
  const hover = page.locator(".monaco-hover:not(.hidden)").first();
  out.hoverShown = Boolean(await waitFor(async () => (await hover.count()) && (await hover.innerText()).includes("HTER"), 20000));
  out.hover = out.hoverShown ? await hover.innerText() : "";
  await page.waitForTimeout(500);
  await page.screenshot({ path: env.BLEU_SHOT_HOVER });
  note("hover");
} catch (err) {
  out.error = String(err?.stack ?? err);
  await page?.screenshot({ path: env.BLEU_SHOT_ERROR ?? "/dev/null" }).catch(() => {});
} finally {
  await browser.close();
  writeFileSync(env.BLEU_OUT, JSON.stringify(out, null, 1));
}
