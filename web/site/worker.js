// The playground's Web Worker: warpsim's WebAssembly module runs here, so the page stays responsive. Messages in:
// {type: "init", bytes} then {type: "call", id, request}; out: {type: "ready"}, {type: "progress", cycle, done,
// total} during a run, {type: "answer", id, answer, ms}, or {type: "crash", id, message} if the module traps.
let wasm = null;
onmessage = async (event) => {
  const m = event.data;
  if (m.type === "init") {
    try {
      const imports = {
        env: {
          ws_progress: (cycle, done, total) => postMessage({ type: "progress", cycle, done, total }),
        },
      };
      const { instance } = await WebAssembly.instantiate(m.bytes, imports);
      wasm = instance.exports;
      postMessage({ type: "ready" });
    } catch (e) {
      postMessage({ type: "crash", id: null, message: String(e) });
    }
    return;
  }
  if (m.type === "call") {
    try {
      const started = performance.now();
      const input = new TextEncoder().encode(JSON.stringify(m.request));
      const ptr = wasm.ws_input(input.length);
      new Uint8Array(wasm.memory.buffer, ptr, input.length).set(input);
      const out = wasm.ws_call();
      const len = wasm.ws_output_len();
      const text = new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, out, len));
      postMessage({ type: "answer", id: m.id, answer: JSON.parse(text), ms: performance.now() - started });
    } catch (e) {
      // A trap (an internal error) leaves the module unusable: the page starts a fresh worker.
      postMessage({ type: "crash", id: m.id, message: String(e) });
    }
  }
};
