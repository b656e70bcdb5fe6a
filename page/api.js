// The daemon's API as the page uses it: JSON calls, SSE streams over fetch, live runs over
// /v1/connect. Busy answers (503) are waited out and retried; 401 asks for a token and retries.

const TOKEN_KEY = "dsa-run-token";
const MAX_BUSY_RETRIES = 8;

export class ApiError extends Error {
  constructor(code, message, { status = 0, known = null, retryAfter = null } = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.known = known;
    this.retryAfter = retryAfter;
  }
}

const hooks = {
  // Resolves once the user gave a token; set by the page.
  needToken: async () => { throw new ApiError("unauthorized", "This server needs a bearer token."); },
  busy: (_seconds, _attempt) => {},
  busyOver: () => {},
};

export function setHooks(given) { Object.assign(hooks, given); }

// The tab's token only: sessionStorage ends with the tab, and nothing else stores it.
export function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }
export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value); else sessionStorage.removeItem(TOKEN_KEY);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterSeconds(response) {
  const seconds = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 30) : 1;
}

async function errorFrom(response) {
  let data = null;
  try { data = await response.json(); } catch { /* the HTTP layer's own answers are plain text */ }
  const error = data && data.error;
  if (error && error.code) {
    return new ApiError(error.code, error.message || error.code, { status: response.status, known: error.known || null });
  }
  return new ApiError("http_" + response.status, `The server answered ${response.status}.`, { status: response.status });
}

// One request, retried while the server is busy or wants a token. Returns the ok response.
export async function request(method, path, body, accept = "application/json") {
  for (let attempt = 1; ; attempt++) {
    const headers = { Accept: accept };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token()) headers.Authorization = "Bearer " + token();
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
    } catch {
      throw new ApiError("connection_lost", "Cannot reach the server: the connection was lost. Check that dsa-rund is running, then try again.");
    }
    if (response.status === 503 && attempt <= MAX_BUSY_RETRIES) {
      const error = await errorFrom(response);
      if (error.code === "busy" || error.code === "http_503") {
        const seconds = retryAfterSeconds(response);
        hooks.busy(seconds, attempt);
        await sleep(seconds * 1000 + 50);
        continue;
      }
      hooks.busyOver();
      throw error;
    }
    hooks.busyOver();
    if (response.status === 401) {
      const error = await errorFrom(response);
      await hooks.needToken(token() ? "That token was not accepted. " + error.message : error.message);
      continue;
    }
    if (!response.ok) throw await errorFrom(response);
    return response;
  }
}

export async function getJSON(path) { return (await request("GET", path)).json(); }
export async function postJSON(path, body) { return (await request("POST", path, body)).json(); }

// POST with Accept: text/event-stream; `on[event](data)` for each event. A server that answers
// plain JSON instead (no streaming there) is taken as one `result` event.
export async function postStream(path, body, on) {
  const response = await request("POST", path, body, "text/event-stream");
  const type = response.headers.get("Content-Type") || "";
  if (!type.startsWith("text/event-stream")) {
    const result = await response.json();
    on.result?.(result);
    return { result, streamed: false };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let result = null;
  let event = "message";
  let data = [];
  const dispatch = () => {
    if (data.length === 0) { event = "message"; return; }
    const payload = JSON.parse(data.join("\n"));
    if (event === "result") result = payload;
    if (event === "error") throw new ApiError(payload.error || "internal_error", payload.message || "The server stopped the stream.");
    on[event]?.(payload);
    event = "message";
    data = [];
  };
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      throw new ApiError("connection_lost", "The connection to the server was lost before the answer was complete.");
    }
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") dispatch();
      else if (line.startsWith(":")) continue;
      else if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
  }
  dispatch();
  if (!result) throw new ApiError("connection_lost", "The connection to the server was lost before the answer was complete.");
  return { result, streamed: true };
}

// A live run over /v1/connect (LIVE-PROTOCOL.md §2). `on` gets stage, stdout, stderr, step;
// resolves with the result. A socket that never opens rejects with code "no_live" (the caller
// falls back to POST /v1/execute); busy and unauthorized are retried here as for HTTP.
export async function connect(body, on) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectOnce(body, on);
    } catch (error) {
      if (error.code === "busy" && attempt <= MAX_BUSY_RETRIES) {
        hooks.busy(1, attempt);
        await sleep(1050);
        continue;
      }
      hooks.busyOver();
      if (error.code === "unauthorized") {
        await hooks.needToken(token() ? "That token was not accepted." : error.message);
        continue;
      }
      throw error;
    }
  }
}

function connectOnce(body, on) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/v1/connect`);
    let opened = false;
    let settled = false;
    const control = {
      send(text) { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "stdin", data: text })); },
      eof() { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "eof" })); },
      kill() { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "kill" })); },
    };
    socket.onopen = () => {
      opened = true;
      hooks.busyOver();
      const start = { type: "start", body, tty: false };
      if (token()) start.token = token();
      socket.send(JSON.stringify(start));
      on.open?.(control);
    };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      switch (data.type) {
        case "stage": on.stage?.(data); break;
        case "stdout": on.stdout?.(data.data); break;
        case "stderr": on.stderr?.(data.data); break;
        case "step": on.step?.(data.step); break;
        case "result": settled = true; resolve({ result: data.result, live: true }); break;
        case "error":
          settled = true;
          reject(new ApiError(data.error || "internal_error", data.message || "The server stopped the run."));
          break;
        default: break;
      }
    };
    // A socket refused before it opened (a proxy without WebSockets, a server without the
    // route): some browsers report only the error, so it settles here as well as in onclose.
    socket.onerror = () => {
      if (settled || opened) return;
      settled = true;
      reject(new ApiError("no_live", "Live runs are not available on this server."));
    };
    socket.onclose = (event) => {
      if (settled) return;
      settled = true;
      if (!opened) {
        reject(new ApiError("no_live", "Live runs are not available on this server."));
      } else if (event.code === 1013) {
        reject(new ApiError("busy", "The server is busy."));
      } else {
        reject(new ApiError("connection_lost", "The connection to the server was lost while the program ran; it was stopped."));
      }
    };
  });
}

// What an error means for a learner, in one or two sentences.
export function plainWords(error, context = {}) {
  switch (error.code) {
    case "unknown_language":
    {
      // A live session's error names no alternatives; the page's own list of runtimes does.
      const known = error.known || context.known;
      return `This server does not run "${context.language || "that language"}".` +
        (known && known.length ? ` It runs ${known.join(", ")}.` : "");
    }
    case "unknown_version":
      return `That version is not installed.` + (error.known ? ` Installed: ${error.known.join(", ")}.` : "");
    case "busy":
      return "The server stayed busy (every box slot in use) through several retries. Try again in a moment.";
    case "connection_lost":
      return error.message;
    case "runtime_unavailable":
      return "This language's toolchain is not installed on the server. " + error.message;
    case "unauthorized":
      return "The server did not accept the token. " + error.message;
    case "payload_too_large":
      return "The program and its input are too large for this server. " + error.message;
    case "bad_request":
      if (/maximum|limit/i.test(error.message)) return "The server refused a limit: " + error.message;
      return "The server could not read the request: " + error.message;
    default:
      return error.message || String(error);
  }
}
