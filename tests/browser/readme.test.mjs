// Where the README's first paper starts when a reader opens it (issue 23):
// README.md is turned into HTML with marked (GitHub-flavoured Markdown), laid
// out in a 1,100 px wide headless Chromium with GitHub's Markdown metrics,
// and the top of the first entry of the list is measured against the height
// of the whole rendered page. It must start within the first 15 %.
//
// Run by tests/browser/run.sh; it reads these variables:
//   README_MD   the README to render (default: the repository's README.md)
//   CHROMIUM    the browser (default /usr/bin/chromium)
//   OUT_DIR     where the HTML, a screenshot and the measurement go
// It prints one line per check and a cargo-style `test result:` line.
// A missing browser is a failure, never a skip.

import { chromium } from 'playwright-core';
import { marked } from 'marked';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const README = process.env.README_MD ?? path.join(repo, 'README.md');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT_DIR = process.env.OUT_DIR ?? path.join(repo, 'target/browser');
const WIDTH = 1100;
const LIMIT = 0.15;
mkdirSync(OUT_DIR, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`);
  }
}

// The metrics of GitHub's rendered Markdown (github-markdown-css): the body
// column, font, line height, heading sizes, table and code padding. Remote
// images (the badges) are not fetched; they keep a badge's height.
const STYLE = `
body { margin: 0; }
.markdown-body { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 45px;
  font: 16px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; word-wrap: break-word; }
.markdown-body h1, .markdown-body h2 { padding-bottom: .3em; border-bottom: 1px solid #d1d9e0; }
.markdown-body h1 { font-size: 2em; } .markdown-body h2 { font-size: 1.5em; } .markdown-body h3 { font-size: 1.25em; }
.markdown-body h1, .markdown-body h2, .markdown-body h3 { margin: 24px 0 16px; line-height: 1.25; }
.markdown-body p, .markdown-body ul, .markdown-body table, .markdown-body pre { margin: 0 0 16px; }
.markdown-body ul { padding-left: 2em; } .markdown-body li + li { margin-top: .25em; }
.markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-spacing: 0; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body code { font-size: 85%; padding: .2em .4em; }
.markdown-body pre { padding: 16px; font-size: 85%; line-height: 1.45; overflow: auto; }
.markdown-body img { max-width: 100%; }
.markdown-body img[src^="http"] { height: 20px; }
`;

async function main() {
  const md = readFileSync(README, 'utf8');
  const body = marked.parse(md, { gfm: true });
  // Relative links and images (stats/*.svg) resolve against the README's folder.
  const base = pathToFileURL(path.dirname(README) + path.sep).href;
  const html = `<!doctype html><html><head><meta charset="utf-8"><base href="${base}">
<style>${STYLE}</style></head><body><article class="markdown-body">${body}</article></body></html>`;
  const htmlPath = path.join(OUT_DIR, 'readme.html');
  writeFileSync(htmlPath, html);

  // The first entry line of the Markdown: the item the measurement must find.
  const lines = md.split('\n');
  const papersAt = lines.findIndex(l => /^## Papers by Category\s*$/i.test(l));
  const firstItem = papersAt < 0 ? undefined : lines.slice(papersAt + 1).find(l => /^- \[/.test(l));
  check('the README has a Papers by Category section with an entry', papersAt >= 0 && Boolean(firstItem));
  if (!firstItem) return;

  if (!existsSync(CHROMIUM)) {
    check(`Chromium at ${CHROMIUM}`, false, 'not installed; `apt-get install chromium` (CI installs it in .ci/run)');
    return;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: 900 } });
    // Nothing leaves the machine: only file URLs load.
    await context.route(/^https?:/, route => route.abort());
    const page = await context.newPage();
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    const m = await page.evaluate(() => {
      const heads = [...document.querySelectorAll('h2')];
      const papers = heads.find(h => h.textContent.trim().toLowerCase() === 'papers by category');
      let el = papers;
      let first = null;
      while (el && (el = el.nextElementSibling) && el.tagName !== 'H2') {
        if (el.tagName === 'UL') {
          first = el.querySelector('li');
          break;
        }
      }
      const svgs = [...document.images].filter(i => i.src.startsWith('file:') && i.src.endsWith('.svg'));
      return {
        top: first ? first.getBoundingClientRect().top + window.scrollY : null,
        text: first ? first.textContent : '',
        height: document.documentElement.scrollHeight,
        charts: svgs.length,
        chartsLoaded: svgs.filter(i => i.complete && i.naturalHeight > 0).length,
      };
    });
    await page.screenshot({ path: path.join(OUT_DIR, 'readme-top.png') });
    await context.close();

    const title = firstItem.match(/^- \[((?:\\.|[^\\\]])+)\]/)[1].replace(/\\(.)/g, '$1');
    check('the measured item is the first entry of the list', m.top !== null && m.text.startsWith(title),
      `measured "${m.text.slice(0, 60)}", expected "${title.slice(0, 60)}"`);
    // The charts count towards the page's height, so they must have loaded.
    check('every chart of the README loaded', m.charts > 0 && m.chartsLoaded === m.charts,
      `${m.chartsLoaded} of ${m.charts}`);
    const share = m.top / m.height;
    const line = `first paper at ${Math.round(m.top)} px of ${m.height} px (${(100 * share).toFixed(1)} %) at ${WIDTH} px`;
    writeFileSync(path.join(OUT_DIR, 'readme-measurement.txt'), `${line}\n`);
    console.log(`  ${line}`);
    check(`the first paper starts within the first ${100 * LIMIT} % of the rendered README`, m.top !== null && share <= LIMIT, line);
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (e) {
  check('the README test ran to its end', false, e && e.stack ? e.stack : String(e));
}
console.log(`\ntest result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; (browser test of the rendered README)`);
process.exit(failed ? 1 : 0);
