// Spendlex rule playground: the browser side of `spendlex playground`. Plain DOM, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
// The key comes in the URL's fragment, which the browser never sends to a server or a log.
const apiKey = new URLSearchParams(location.hash.slice(1)).get('key') || '';

const el = {
  status: $('status'), note: $('note'), messages: $('messages'), sender: $('sender'), file: $('message-file'),
  drop: $('pane-messages'), fileSelect: $('file-select'), suggest: $('suggest'), rule: $('rule'),
  gutter: $('gutter'), caret: $('caret'), diagnostics: $('diagnostics'), examples: $('examples'),
  savePath: $('save-path'), save: $('save'), saveResult: $('save-result'), results: $('results'),
  dialog: $('diff-dialog'), diffTitle: $('diff-title'), diffSummary: $('diff-summary'), diff: $('diff'),
  confirm: $('confirm-save'), cancel: $('cancel-save'),
};

// Small helpers ------------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child != null && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// #status follows the checking as you type; #note reports the last action (open, load, draft, add).
function setStatus(text, state) {
  el.status.textContent = text;
  el.status.dataset.state = state;
}

function setNote(text, state) {
  el.note.textContent = text;
  el.note.dataset.state = state;
}

class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    Object.assign(this, { status, code, body });
  }
}

// Every call carries the key; an error body {"error": {code, message}} becomes an ApiError.
async function api(method, path, body, raw) {
  const headers = { 'X-API-Key': apiKey };
  let payload;
  if (raw) {
    headers['Content-Type'] = 'application/octet-stream';
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload });
  let json = null;
  try { json = await response.json(); } catch { /* not JSON: reported below */ }
  if (!response.ok) {
    const error = (json && json.error) || {};
    throw new ApiError(response.status, error.code || 'http_' + response.status,
      error.message || `${method} ${path}: HTTP ${response.status}`, json);
  }
  return json;
}

// Messages: blocks separated by a blank line; optional "sender:" / "subject:" header lines.
function samples() {
  const fallbackSender = el.sender.value.trim();
  return el.messages.value.split(/\n[ \t]*\n/).map((block) => {
    const lines = block.split('\n');
    const sample = {};
    let match;
    while (lines.length && (match = /^(sender|subject):\s*(.*)$/i.exec(lines[0]))) {
      sample[match[1].toLowerCase()] = match[2].trim();
      lines.shift();
    }
    sample.text = lines.join('\n').trim();
    if (!sample.sender && fallbackSender) sample.sender = fallbackSender;
    return sample;
  }).filter((sample) => sample.text);
}

function messageBlock(message) {
  // A blank line inside a message would split it in two: close such gaps.
  const text = (message.text || '').replace(/\n[ \t]*(?=\n)/g, '').replace(/\n{2,}/g, '\n').trim();
  return [message.sender && `sender: ${message.sender}`, message.subject && `subject: ${message.subject}`, text]
    .filter(Boolean).join('\n');
}

// Replaces the editor's text through the editing command where it exists, so Ctrl+Z undoes it.
function replaceRule(text) {
  el.rule.focus();
  el.rule.select();
  if (!document.execCommand || !document.execCommand('insertText', false, text)) {
    el.rule.value = text;
    el.rule.dispatchEvent(new Event('input'));
  }
  el.rule.setSelectionRange(0, 0);
  el.rule.scrollTop = 0;
  updateCaret();
}

// The editor: line numbers, caret position, marked lines ---------------------------------------

let markedLines = new Map(); // line → severity of its worst diagnostic

function updateGutter() {
  const count = el.rule.value.split('\n').length;
  const lines = [];
  for (let line = 1; line <= count; line++) {
    const severity = markedLines.get(line);
    lines.push(severity ? h('span', { class: 'mark ' + severity, title: severity }, String(line)) : String(line));
    lines.push('\n');
  }
  el.gutter.replaceChildren(...lines);
  el.gutter.scrollTop = el.rule.scrollTop;
}

function updateCaret() {
  const before = el.rule.value.slice(0, el.rule.selectionStart).split('\n');
  el.caret.textContent = `Line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

function goTo(line, column) {
  const lines = el.rule.value.split('\n');
  line = Math.min(Math.max(line, 1), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  offset += Math.min(Math.max(column - 1, 0), lines[line - 1].length);
  el.rule.focus();
  el.rule.setSelectionRange(offset, offset);
  // Bring the line into view: line height times the line, less a few lines of context.
  const lineHeight = parseFloat(getComputedStyle(el.rule).lineHeight) || 18;
  el.rule.scrollTop = Math.max(0, (line - 4) * lineHeight);
  updateCaret();
}

// Trying the draft: debounced, and only a newer answer than the one shown is drawn -------------

let timer = null;
let sentSeq = 0;
let shownSeq = 0;

function scheduleTry() {
  clearTimeout(timer);
  timer = setTimeout(tryDraft, 300);
}

async function tryDraft() {
  const yaml = el.rule.value;
  const list = samples();
  if (!yaml.trim()) {
    markedLines = new Map();
    updateGutter();
    el.diagnostics.replaceChildren(h('li', { class: 'quiet' }, 'Write a bank file, open one, or draft one from the messages.'));
    el.examples.replaceChildren();
    el.results.replaceChildren();
    return;
  }
  const seq = ++sentSeq;
  const sentAt = Date.now();
  el.status.dataset.sentSeq = seq;
  el.status.dataset.sentAt = sentAt;
  setStatus('Checking…', 'busy');
  try {
    const answer = await api('POST', '/rules/try', { yaml, samples: list });
    if (seq <= shownSeq) return; // an older answer that arrived late
    shownSeq = seq;
    renderTrial(answer, list);
    const took = Date.now() - sentAt;
    Object.assign(el.status.dataset, { shownSeq: seq, shownSentAt: sentAt, shownAt: Date.now() });
    if (seq === sentSeq) setStatus(`Checked ${list.length} message${list.length === 1 ? '' : 's'} in ${took} ms.`, 'ok');
  } catch (error) {
    if (seq === sentSeq) setStatus(describe(error), 'error');
  }
}

function describe(error) {
  if (error instanceof ApiError && error.status === 401) {
    return 'The service refused the key: open the address that `spendlex playground` printed (it ends in #key=…).';
  }
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return `Cannot reach the service: ${error.message}`;
}

function diagnosticText(d) {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

function diagnosticItem(d) {
  // Only the draft's own lines can be jumped to.
  if (d.file !== 'draft.yaml' || !d.line) return h('li', { class: d.severity }, diagnosticText(d));
  return h('li', { class: d.severity },
    h('button', { type: 'button', class: 'link', 'data-line': d.line, 'data-column': d.column,
      onclick: () => goTo(d.line, d.column) }, diagnosticText(d)));
}

function renderTrial(answer, sent) {
  const diagnostics = answer.diagnostics || [];
  const failures = (answer.examples && answer.examples.failures) || [];
  markedLines = new Map();
  for (const d of [...diagnostics, ...failures]) {
    if (d.file !== 'draft.yaml' || !d.line) continue;
    const severity = d.severity === 'error' || failures.includes(d) ? 'error' : 'warning'; // a failed example is an error
    if (markedLines.get(d.line) !== 'error') markedLines.set(d.line, severity);
  }
  updateGutter();

  el.diagnostics.replaceChildren(...(diagnostics.length ? diagnostics.map(diagnosticItem)
    : [h('li', { class: 'quiet' }, `No problems.${answer.banks && answer.banks.length ? ' Banks: ' + answer.banks.join(', ') : ''}`)]));

  const examples = answer.examples;
  el.examples.replaceChildren(examples
    ? h('div', {}, h('p', { class: examples.failed ? 'bad' : 'good' }, `${examples.passed} passed, ${examples.failed} failed`),
      failures.length ? h('ul', { class: 'failures' }, failures.map(diagnosticItem)) : null)
    : h('p', { class: 'quiet' }, 'Not run: fix the errors first.'));

  const results = answer.results || [];
  el.results.replaceChildren(...(results.length ? results.map((result, i) => resultCard(result, sent[i] || {}, i))
    : [h('p', { class: 'quiet' }, diagnostics.some((d) => d.severity === 'error')
      ? 'Fix the errors to see results.' : 'Paste a message in the Messages pane.')]));
}

// A result card ------------------------------------------------------------------------------

const FIELDS = ['amount', 'currency', 'date', 'time', 'merchant', 'direction', 'kind', 'channel', 'balance',
  'reference', 'account', 'category', 'status'];

function fieldValue(t, name) {
  const value = t[name];
  if (name === 'account' && value) return [value.type, value.last4 && '…' + value.last4].filter(Boolean).join(' ');
  if (name === 'category' && value && t.subcategory) return `${value} / ${t.subcategory}`;
  return value;
}

function fieldsTable(t) {
  return h('table', { class: 'fields' },
    h('caption', { class: 'visually-hidden' }, 'Extracted fields'),
    h('tbody', {}, FIELDS.map((name) => {
      const value = fieldValue(t, name);
      return h('tr', { 'data-field': name }, h('th', { scope: 'row' }, name),
        h('td', { class: value == null || value === '' ? 'quiet' : null }, value == null || value === '' ? '—' : value));
    })));
}

function resultCard(result, sample, index) {
  const t = result.transaction;
  const card = h('article', { class: 'card ' + result.status, 'data-status': result.status, 'data-index': index },
    h('h3', {}, `Message ${index + 1}: `, h('span', { class: 'badge ' + result.status }, result.status)),
    h('p', { class: 'message-text' }, result.text != null ? result.text : sample.text),
    h('dl', { class: 'meta' },
      h('dt', {}, 'Rule'), h('dd', { class: 'rule-id' }, result.rule || '—'),
      t && t.confidence != null ? [h('dt', {}, 'Confidence'), h('dd', { class: 'confidence' }, Number(t.confidence).toFixed(2),
        // What lowered it, as `spendlex explain` lists it: "−0.35 specificity: read by the fallback…".
        (result.confidence_parts || []).length
          ? h('ul', { class: 'confidence-parts' }, result.confidence_parts.map((p) =>
            h('li', {}, `−${Number(p.weight).toFixed(2)} ${p.part}: ${p.summary}`)))
          : null)] : null,
      result.reason ? [h('dt', {}, 'Reason'), h('dd', {}, result.reason)] : null));

  if (result.catastrophic) {
    // Prominent: such a pattern can stall every message of the bank.
    card.querySelector('h3').after(h('p', { class: 'catastrophic' },
      h('strong', {}, 'Catastrophic backtracking: '), result.reason || 'a pattern hit the backtracking limit.'));
  }
  if (t) {
    card.append(fieldsTable(t));
    if (result.rule) {
      card.append(h('button', { type: 'button', class: 'add-example', onclick: (event) => addExample(result, sample, event.target) },
        'Add as example'));
    }
  }
  if (result.nearest) card.append(nearestBlock(result.nearest));
  card.append(fallbackBlock(result.fallback));
  return card;
}

function nearestBlock(nearest) {
  const percent = nearest.progress != null ? ` (${Math.round(nearest.progress * 100)}% of the pattern)` : '';
  return h('div', { class: 'nearest' },
    h('p', {}, 'Nearest parser: ', h('code', { class: 'nearest-parser' }, nearest.parser), ` — stopped here${percent}:`),
    h('pre', { class: 'pattern' },
      h('span', { class: 'before' }, nearest.pattern_before || ''),
      h('mark', { class: 'stop-marker', title: 'the pattern stopped matching here', 'aria-label': 'stopped here' }, '▼ stop'),
      h('span', { class: 'after' }, nearest.pattern_after || '')),
    h('p', {}, 'Matched text: ', nearest.matched_text ? h('code', { class: 'matched' }, nearest.matched_text) : h('span', { class: 'quiet' }, 'nothing')));
}

function fallbackBlock(fallback) {
  if (!fallback) return h('p', { class: 'fallback quiet' }, 'Without this draft: not known.');
  const t = fallback.transaction;
  const what = t ? `${fallback.status}: ${[t.amount, t.currency].filter(Boolean).join(' ')}${t.merchant ? ' at ' + t.merchant : ''}`
    : fallback.status;
  return h('p', { class: 'fallback' }, 'Without this draft, the loaded rules make: ', h('span', {}, what),
    fallback.rule ? h('span', { class: 'quiet' }, ` (${fallback.rule})`) : null);
}

async function addExample(result, sample, button) {
  const t = result.transaction;
  const expect = {};
  for (const name of ['amount', 'currency', 'merchant', 'date', 'time', 'balance', 'reference']) {
    if (t[name] != null && t[name] !== '') expect[name] = String(t[name]);
  }
  if (t.account && t.account.last4) expect.last4 = String(t.account.last4);
  button.disabled = true;
  try {
    const body = { yaml: el.rule.value, parser: result.rule, text: sample.text, expect };
    if (sample.sender) body.sender = sample.sender;
    const answer = await api('POST', '/playground/example', body);
    replaceRule(answer.yaml);
    setNote(`Added an example to ${result.rule}.`, 'ok');
  } catch (error) {
    setNote(describe(error), 'error');
    button.disabled = false;
  }
}

// Files: the picker, loading messages, drafting, saving -----------------------------------------

let knownFiles = [];

async function loadFileList() {
  try {
    knownFiles = (await api('GET', '/playground/files')).files || [];
    const chosen = el.fileSelect.value;
    el.fileSelect.replaceChildren(h('option', { value: '' }, '(new draft)'),
      ...knownFiles.map((f) => h('option', { value: f.path }, f.banks && f.banks.length ? `${f.path} (${f.banks.join(', ')})` : f.path)));
    el.fileSelect.value = chosen;
  } catch (error) {
    setNote(describe(error), 'error');
  }
}

el.fileSelect.addEventListener('change', async () => {
  const path = el.fileSelect.value;
  if (!path) return;
  try {
    const file = await api('GET', '/playground/file?path=' + encodeURIComponent(path));
    el.rule.value = file.yaml;
    el.savePath.value = file.path;
    el.rule.scrollTop = 0;
    updateGutter();
    updateCaret();
    setNote(`Opened ${file.path}.`, 'ok');
    scheduleTry();
  } catch (error) {
    setNote(describe(error), 'error');
  }
});

async function loadMessages(file) {
  setNote(`Reading ${file.name}…`, 'busy');
  try {
    const answer = await api('POST', '/playground/messages?name=' + encodeURIComponent(file.name), file, true);
    el.messages.value = answer.messages.map(messageBlock).join('\n\n');
    setNote(`Loaded ${answer.count} message${answer.count === 1 ? '' : 's'} from ${file.name}${answer.truncated ? ' (only the first ones: the file has more)' : ''}.`, 'ok');
    scheduleTry();
  } catch (error) {
    setNote(describe(error), 'error');
  }
}

el.file.addEventListener('change', () => {
  if (el.file.files[0]) loadMessages(el.file.files[0]);
  el.file.value = ''; // so that the same file, changed, can be loaded again
});
el.drop.addEventListener('dragover', (event) => { event.preventDefault(); el.drop.classList.add('dragging'); });
el.drop.addEventListener('dragleave', () => el.drop.classList.remove('dragging'));
el.drop.addEventListener('drop', (event) => {
  event.preventDefault();
  el.drop.classList.remove('dragging');
  const file = event.dataTransfer.files[0];
  if (file) loadMessages(file);
});

el.suggest.addEventListener('click', async () => {
  const list = samples();
  if (!list.length) { setNote('Paste a message first: the draft is made from the messages.', 'error'); return; }
  setNote('Drafting…', 'busy');
  try {
    const answer = await api('POST', '/playground/suggest', { samples: list });
    if (answer.yaml) {
      replaceRule(answer.yaml);
      setNote(`Drafted a bank file${answer.reason ? ': ' + answer.reason : ''}. Ctrl+Z brings the previous text back.`, 'ok');
    } else {
      setNote(`No draft: ${answer.reason || 'the messages do not look like bank alerts.'}`, 'error');
    }
  } catch (error) {
    setNote(describe(error), 'error');
  }
});

// A line diff by longest common subsequence, after trimming the common head and tail (cheap for edits).
function lineDiff(before, after) {
  // A final newline ends the last line; it does not start another.
  const lines = (text) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const a = lines(before), b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail), y = b.slice(head, b.length - tail);
  const n = x.length, m = y.length, w = m + 1;
  const lcs = new Uint32Array((n + 1) * w); // lcs[i*w+j]: LCS length of x[i..] and y[j..]
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const ops = a.slice(0, head).map((line) => [' ', line]);
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { ops.push([' ', x[i]]); i++; j++; }
    else if (j < m && (i === n || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])) ops.push(['+', y[j++]]);
    else ops.push(['-', x[i++]]);
  }
  return ops.concat(a.slice(a.length - tail).map((line) => [' ', line]));
}

// Unchanged runs longer than six lines are folded to three lines of context on each side.
function renderDiff(ops) {
  const nodes = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k][0] !== ' ') { nodes.push(h('span', { class: ops[k][0] === '+' ? 'added' : 'removed' }, `${ops[k][0]} ${ops[k][1]}\n`)); k++; continue; }
    let end = k;
    while (end < ops.length && ops[end][0] === ' ') end++;
    const run = ops.slice(k, end);
    const keepHead = k === 0 ? 0 : 3, keepTail = end === ops.length ? 0 : 3;
    if (run.length > keepHead + keepTail + 1) {
      run.slice(0, keepHead).forEach((op) => nodes.push(`  ${op[1]}\n`));
      nodes.push(h('span', { class: 'folded' }, `  … ${run.length - keepHead - keepTail} unchanged lines\n`));
      run.slice(run.length - keepTail).forEach((op) => nodes.push(`  ${op[1]}\n`));
    } else {
      run.forEach((op) => nodes.push(`  ${op[1]}\n`));
    }
    k = end;
  }
  el.diff.replaceChildren(...nodes);
}

let pendingSave = null;

el.save.addEventListener('click', async () => {
  const path = el.savePath.value.trim();
  if (!path) { el.saveResult.textContent = 'Give a path to save to, such as banks/us/mybank.yaml.'; el.savePath.focus(); return; }
  // Diff against what the folder holds at that path now, asked of the service each time (the
  // file list can be older than the last save: a second Save right after the first must not
  // call the file new). A 404 is a new file; any other failure leaves no diff to show.
  let original = '';
  try {
    original = (await api('GET', '/playground/file?path=' + encodeURIComponent(path))).yaml;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) {
      el.saveResult.textContent = 'Not saved: could not read what the folder holds there: ' + describe(error);
      return;
    }
  }
  const yaml = el.rule.value;
  const ops = lineDiff(original, yaml);
  const added = ops.filter((op) => op[0] === '+').length, removed = ops.filter((op) => op[0] === '-').length;
  el.diffTitle.textContent = `Save ${path}?`;
  el.diffSummary.textContent = original ? `${added} line${added === 1 ? '' : 's'} added, ${removed} removed.`
    : `A new file of ${added} line${added === 1 ? '' : 's'}.`;
  renderDiff(ops);
  pendingSave = { path, yaml };
  el.dialog.returnValue = '';
  el.dialog.showModal(); // modal: the rest of the page is inert until it closes
  el.diff.focus();
});

el.cancel.addEventListener('click', () => el.dialog.close('cancel'));
el.confirm.addEventListener('click', () => el.dialog.close('confirm'));
el.dialog.addEventListener('close', async () => {
  el.save.focus(); // back where the person was
  const save = pendingSave;
  pendingSave = null;
  if (el.dialog.returnValue !== 'confirm' || !save) return;
  el.saveResult.textContent = `Saving ${save.path}…`;
  try {
    const answer = await api('PUT', '/playground/file', save);
    const warnings = (answer.diagnostics || []).map(diagnosticText);
    // The file list first, then the outcome: once "Saved" shows, the page agrees with the folder.
    await loadFileList();
    el.fileSelect.value = answer.path;
    el.saveResult.textContent = answer.reload === 'swapped'
      ? `Saved ${answer.path}; the service now uses it.`
      : `Saved ${answer.path}, but the service kept its previous rules (${answer.reload}).`;
    if (warnings.length) el.saveResult.textContent += ' ' + warnings.join('; ');
    el.saveResult.dataset.outcome = 'saved';
  } catch (error) {
    const diagnostics = (error.body && error.body.diagnostics) || [];
    el.saveResult.textContent = (error.code === 'invalid_rules' ? 'Not saved: the file does not compile. ' : 'Not saved: ')
      + [error.message, ...diagnostics.map(diagnosticText)].join(' ');
    el.saveResult.dataset.outcome = 'refused';
  }
});

// Wiring ------------------------------------------------------------------------------------

el.rule.addEventListener('input', () => { updateGutter(); updateCaret(); scheduleTry(); });
el.rule.addEventListener('scroll', () => { el.gutter.scrollTop = el.rule.scrollTop; });
for (const event of ['keyup', 'click', 'select']) el.rule.addEventListener(event, updateCaret);
el.messages.addEventListener('input', scheduleTry);
el.sender.addEventListener('input', scheduleTry);

if (!apiKey) setNote('No key in the address: open the address that `spendlex playground` printed (it ends in #key=…).', 'error');
updateGutter();
loadFileList();
