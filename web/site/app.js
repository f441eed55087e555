// The playground page: an editor, the launch's settings, and the results, over warpsim's WebAssembly module running
// in a Web Worker (worker.js, inlined in the page). No network: the module and the examples are scripts beside it.
"use strict";

const $ = (id) => document.getElementById(id);
const bytes = Uint8Array.from(atob(WARPSIM_WASM), (c) => c.charCodeAt(0));
let worker = null;
let ready = null;
let pending = new Map();
let nextId = 1;
let catalogue = { programs: [], puzzles: [] };
// The PTX example in the editor (its CUDA or Python sources travel with a run), or null.
let ptxExample = null;

function startWorker() {
  const source = $("worker-source").textContent;
  worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  ready = new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.type === "ready") resolve();
      else if (m.type === "progress") showProgress(m);
      else if (m.type === "answer" || m.type === "crash") {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.type === "crash") {
          if (p) p.reject(new Error(m.message));
          else reject(new Error(m.message));
          restart();
        } else if (p) p.resolve(m);
      }
    };
  });
  worker.postMessage({ type: "init", bytes: bytes.slice() });
}

function restart() {
  if (worker) worker.terminate();
  for (const p of pending.values()) p.reject(new Error("stopped"));
  pending = new Map();
  startWorker();
}

async function call(request) {
  await ready;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ type: "call", id, request });
  });
}

function status(text, kind) {
  $("status").textContent = text;
  $("status").className = kind || "";
}

function showProgress(m) {
  const bar = $("progress");
  bar.hidden = false;
  bar.max = Math.max(1, m.total);
  bar.value = m.done;
  status(`running: cycle ${m.cycle}, ${m.done} of ${m.total} blocks done`);
}

// --- The editor: line numbers, and the diagnostics at their lines ---------------------------------------------
let errorLines = new Set();

function drawGutter() {
  const n = $("source").value.split("\n").length;
  const lines = [];
  for (let k = 1; k <= n; k++) {
    // The mark is a glyph and a word for screen readers, not colour alone.
    lines.push(errorLines.has(k) ? `<span class="error" title="error on this line">⚠ ${k}</span>` : String(k));
  }
  $("gutter").innerHTML = lines.join("\n") + "\n";
  $("gutter").scrollTop = $("source").scrollTop;
}

function goToLine(line, column) {
  const text = $("source").value;
  let at = 0;
  for (let k = 1; k < line; k++) at = text.indexOf("\n", at) + 1;
  at += Math.max(0, (column || 1) - 1);
  $("source").focus();
  $("source").setSelectionRange(at, at);
  const perLine = $("source").scrollHeight / Math.max(1, text.split("\n").length);
  $("source").scrollTop = Math.max(0, (line - 5) * perLine);
}

function showDiagnostics(answer) {
  const list = $("diagnostics");
  list.innerHTML = "";
  errorLines = new Set();
  const places = (answer.diagnostics || []).filter((d) => d.file === "editor");
  for (const d of places) {
    errorLines.add(d.line);
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "diagnostic";
    b.dataset.line = d.line;
    b.textContent = `line ${d.line}, column ${d.column}: ${d.message}`;
    b.onclick = () => goToLine(d.line, d.column);
    li.appendChild(b);
    list.appendChild(li);
  }
  if (!answer.ok && places.length === 0 && answer.error) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = answer.error;
    li.appendChild(b);
    list.appendChild(li);
  }
  drawGutter();
}

// --- Settings, examples and the shared link --------------------------------------------------------------------
function settings() {
  return {
    source: $("source").value,
    warp: Number($("warp").value),
    grid: $("grid").value,
    block: $("block").value,
    set: $("set").value,
    buffers: $("buffers").value,
    checks: $("checks").value,
    trace: $("trace").checked,
    ptx: ptxExample ? ptxExample.name : null,
    puzzle: $("puzzle").value || null,
  };
}

function apply(s) {
  $("source").value = s.source || "";
  $("warp").value = String(s.warp || 8);
  $("grid").value = s.grid || "";
  $("block").value = s.block || "";
  $("set").value = s.set || "";
  $("buffers").value = s.buffers || "";
  $("checks").value = s.checks || "";
  $("trace").checked = s.trace !== false;
  ptxExample = (s.ptx && WARPSIM_PTX.find((e) => e.name === s.ptx)) || null;
  drawGutter();
}

function isPtx(text) {
  return text.includes(".entry") && text.includes(".version");
}

function loadExample(value) {
  if (!value) return;
  const [kind, name] = value.split(":");
  if (kind === "s") {
    const p = catalogue.programs.find((x) => x.name === name);
    const warp = Math.min(Math.max(8, p.warp_sizes ? p.warp_sizes[0] : 8), p.warp_sizes ? p.warp_sizes[1] : 64);
    apply({ source: p.source, warp, trace: true });
  } else {
    const e = WARPSIM_PTX.find((x) => x.name === name);
    apply({ source: e.text, warp: 32, grid: e.grid, block: e.block, set: e.set, buffers: e.buffers, trace: true, ptx: e.name });
  }
  $("puzzle").value = "";
  $("check").hidden = true;
}

function encode(s) {
  const utf8 = new TextEncoder().encode(JSON.stringify(s));
  let bin = "";
  for (const b of utf8) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}

function share() {
  const s = settings();
  // A PTX example travels by name; the text only when it was edited.
  if (ptxExample && s.source === ptxExample.text) delete s.source;
  const url = location.href.split("#")[0] + "#p=" + encode(s);
  history.replaceState(null, "", url);
  $("link").hidden = false;
  $("link").value = url;
  $("link").select();
  status("the link above restores this program and its settings");
}

function restore() {
  const m = location.hash.match(/^#p=([A-Za-z0-9_-]+)$/);
  if (!m) return false;
  try {
    const s = decode(m[1]);
    if (s.source === undefined && s.ptx) {
      const e = WARPSIM_PTX.find((x) => x.name === s.ptx);
      if (e) s.source = e.text;
    }
    apply(s);
    if (s.puzzle) choosePuzzle(s.puzzle, false);
    return true;
  } catch (e) {
    status("the link's program could not be read", "bad");
    return false;
  }
}

// --- Results ---------------------------------------------------------------------------------------------------
function selectTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.id === "tab-" + name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
}

function showBuffers(answer) {
  const panel = $("panel-output");
  panel.innerHTML = "";
  for (const b of answer.buffers) {
    const table = document.createElement("table");
    table.className = "buffer";
    table.dataset.buffer = b.name;
    const cap = document.createElement("caption");
    cap.textContent = `${b.name}: ${b.elem}[${b.len}]` + (b.len > b.values.length ? ` (the first ${b.values.length})` : "");
    table.appendChild(cap);
    const head = table.insertRow();
    const cells = table.insertRow();
    b.values.forEach((v, k) => {
      const th = document.createElement("th");
      th.textContent = k;
      th.scope = "col";
      head.appendChild(th);
      cells.insertCell().textContent = v;
    });
    panel.appendChild(table);
  }
}

function showRun(answer, ms) {
  showDiagnostics(answer);
  $("panel-picture").innerHTML = answer.svg || "<p class=help>Run with Trace on to draw the lane exchanges.</p>";
  $("stepper").srcdoc = answer.html || "<p>Run with Trace on to step through the run.</p>";
  if (!answer.ok) {
    $("stats").textContent = answer.error;
    status(answer.fault ? `fault: ${answer.fault}` : "error: see the diagnostics below the editor", "bad");
    return;
  }
  showBuffers(answer);
  $("stats").textContent = answer.stats;
  const rate = answer.lane_instructions / (ms / 1000);
  const findings = answer.findings.length ? `; ${answer.findings.length} finding(s) by the checks, below the editor` : "";
  status(
    `${answer.program}: ${answer.cycles} cycles, ${answer.lane_instructions} lane instructions in ${ms.toFixed(1)} ms ` +
      `(${rate.toExponential(2)} per second)${findings}`,
    answer.findings.length ? "bad" : "good",
  );
  if (answer.findings.length) {
    const list = $("diagnostics");
    for (const f of answer.findings) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = f;
      li.appendChild(b);
      list.appendChild(li);
    }
  }
}

async function run() {
  const s = settings();
  const request = {
    op: "run",
    source: s.source,
    kind: isPtx(s.source) ? "ptx" : "s",
    warp: s.warp,
    grid: s.grid,
    block: s.block,
    set: s.set,
    buffers: s.buffers,
    checks: s.checks,
    trace: s.trace,
    sources: ptxExample ? ptxExample.sources : {},
  };
  $("run").disabled = true;
  $("stop").disabled = false;
  $("link").hidden = true;
  status("running…");
  try {
    const m = await call(request);
    showRun(m.answer, m.ms);
  } catch (e) {
    status(e.message === "stopped" ? "stopped" : `internal error: ${e.message}`, "bad");
  } finally {
    $("run").disabled = false;
    $("stop").disabled = true;
    $("progress").hidden = true;
  }
}

// --- Puzzles ---------------------------------------------------------------------------------------------------
function choosePuzzle(name, load) {
  const p = catalogue.puzzles.find((x) => x.name === name);
  $("puzzle").value = p ? name : "";
  $("check").hidden = !p;
  const task = $("puzzle-task");
  task.innerHTML = "";
  if (!p) return;
  const h = document.createElement("h2");
  h.textContent = p.title;
  const t = document.createElement("p");
  t.textContent = p.task;
  const d = document.createElement("details");
  const s = document.createElement("summary");
  s.textContent = "Hint";
  const hint = document.createElement("p");
  hint.textContent = p.hint;
  d.append(s, hint);
  const w = document.createElement("p");
  w.className = "help";
  w.textContent = `Checked at warp sizes ${p.warp_sizes.join(", ")}, under the default, reverse and random schedules, in lockstep and with independent thread scheduling, with every check on.`;
  task.append(h, t, d, w);
  $("verdict").textContent = "";
  $("verdict").className = "";
  if (load) {
    apply({ source: p.start, warp: p.warp_sizes[p.warp_sizes.length - 1], trace: true });
    $("example").value = "";
  }
  selectTab("puzzle");
}

async function checkAnswer() {
  $("check").disabled = true;
  status("checking…");
  try {
    const m = await call({ op: "check", puzzle: $("puzzle").value, source: $("source").value });
    const a = m.answer;
    showDiagnostics(a);
    selectTab("puzzle");
    if (!a.ok) {
      $("verdict").className = "fail";
      $("verdict").textContent = a.error;
      status("the answer does not assemble: see the diagnostics", "bad");
    } else {
      $("verdict").className = a.passed ? "pass" : "fail";
      $("verdict").textContent = a.text;
      status(a.passed ? `pass (${a.runs} runs)` : `fail (run ${a.runs})`, a.passed ? "good" : "bad");
    }
  } catch (e) {
    status(e.message === "stopped" ? "stopped" : `internal error: ${e.message}`, "bad");
  } finally {
    $("check").disabled = false;
  }
}

// --- Wiring ----------------------------------------------------------------------------------------------------
function fillMenus() {
  const ex = $("example");
  ex.innerHTML = "<option value=''>(choose an example)</option>";
  const own = document.createElement("optgroup");
  own.label = "warpsim programs";
  for (const p of catalogue.programs) {
    const o = new Option(p.name, "s:" + p.name);
    o.title = p.description;
    own.appendChild(o);
  }
  const ptx = document.createElement("optgroup");
  ptx.label = "PTX (nvcc -O3, Numba)";
  for (const e of WARPSIM_PTX) ptx.appendChild(new Option(e.name, "ptx:" + e.name));
  ex.append(own, ptx);
  for (const p of catalogue.puzzles) $("puzzle").appendChild(new Option(`${p.title} (${p.name})`, p.name));
}

document.addEventListener("DOMContentLoaded", async () => {
  startWorker();
  $("source").addEventListener("input", () => {
    errorLines = new Set();
    drawGutter();
  });
  $("source").addEventListener("scroll", () => ($("gutter").scrollTop = $("source").scrollTop));
  $("run").onclick = run;
  $("stop").onclick = () => restart();
  $("share").onclick = share;
  $("check").onclick = checkAnswer;
  $("example").onchange = (e) => loadExample(e.target.value);
  $("puzzle").onchange = (e) => choosePuzzle(e.target.value, true);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (!$("run").disabled) run();
    }
  });
  // Tabs: arrow keys move between them (the WAI-ARIA tabs pattern).
  const tabs = [...document.querySelectorAll("[role=tab]")];
  tabs.forEach((tab, k) => {
    tab.onclick = () => selectTab(tab.id.slice(4));
    tab.onkeydown = (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (step) {
        const next = tabs[(k + step + tabs.length) % tabs.length];
        selectTab(next.id.slice(4));
        next.focus();
      }
    };
  });
  try {
    await ready;
    catalogue = (await call({ op: "list" })).answer;
    fillMenus();
    if (!restore()) {
      $("example").value = "s:butterfly_max";
      loadExample("s:butterfly_max");
    }
    status("ready: Run (Ctrl+Enter) simulates the program");
    document.body.dataset.ready = "true";
  } catch (e) {
    status(`the simulator could not start: ${e.message}`, "bad");
  }
});
