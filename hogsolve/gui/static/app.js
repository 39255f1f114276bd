// hogsolve GUI: play the optimal bot and explore its policy.
// All game logic lives on the server; this page draws its state.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// One colour per dice count, told apart at a glance (ColorBrewer "Paired", 0 dark).
const DICE_COLOURS = ["#1d2430", "#a6cee3", "#1f78b4", "#b2df8a", "#33a02c", "#fb9a99",
                      "#e31a1c", "#fdbf6f", "#ff7f00", "#cab2d6", "#6a3d9a"];
const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
              4: [[28, 28], [72, 28], [28, 72], [72, 72]],
              5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
              6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]]};
// The heatmap's plot area inside its canvas: room on the left and top for ticks.
const MAP = {left: 34, top: 22, size: 400};

let game = null;        // the server's state of the current game
let policy = null;      // {goal, policy, win_probability} of the current ruleset
let busy = false;       // a request is on its way
let cursor = null;      // [score, opponent_score] chosen with the arrow keys on the heatmap

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError("the hogsolve server cannot be reached; is it still running?", 0);
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = {}; }
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  return data;
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function svgText(attrs, text) {
  const t = svgEl("text", attrs);
  t.textContent = text;
  return t;
}

// ---------------------------------------------------------------- errors --
function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
  document.body.dataset.error = message;
}

function clearError() {
  $("error").hidden = true;
  delete document.body.dataset.error;
}

// ------------------------------------------------------------------ dice --
function drawDie(face, sides) {
  const svg = svgEl("svg", {viewBox: "0 0 100 100", class: "die", "data-face": face, "data-sides": sides,
                            "aria-hidden": "true"});
  const one = face === 1;
  if (sides === 4) {  // a four-sided die: a triangle with its number
    svg.appendChild(svgEl("polygon", {points: "50,6 95,90 5,90", fill: one ? "#fee2e2" : "#dcfce7",
                                      stroke: "#166534", "stroke-width": 4, "stroke-linejoin": "round"}));
    svg.appendChild(svgText({x: 50, y: 74, "text-anchor": "middle", "font-size": 38, "font-weight": 700,
                             fill: "#14532d"}, face));
  } else {
    svg.appendChild(svgEl("rect", {x: 4, y: 4, width: 92, height: 92, rx: 16, fill: one ? "#fee2e2" : "#fff",
                                   stroke: "#1d2430", "stroke-width": 4}));
    for (const [x, y] of PIPS[face] || []) {
      svg.appendChild(svgEl("circle", {cx: x, cy: y, r: 9, fill: one ? "#dc2626" : "#1d2430"}));
    }
  }
  return svg;
}

function eventWords(e) {  // the server sends rule events as data: {kind, ...numbers}
  const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
  if (e.kind === "hog_wild") return `Hog Wild: ${e.sides}-sided dice`;
  if (e.kind === "free_bacon") return `Free Bacon: ${points(e.points)}`;
  if (e.kind === "pig_out") return `Pig Out: ${points(e.points)}`;
  if (e.kind === "swine_swap") return "Swine Swap";
  if (e.kind === "extra_turn") return "Extra turn";
  if (e.kind === "piggy_back") return `Piggy Back: the opponent gains ${e.points}`;
  if (e.kind === "feral_hogs") return `Feral Hogs: ${points(e.points)}`;
  return e.kind;
}
const EVENT_CLASS = {pig_out: "pig", swine_swap: "swap", hog_wild: "wild", free_bacon: "", extra_turn: "swap",
                     feral_hogs: "wild"};

function turnWords(turn) {
  const who = turn.player === "you" ? "You" : "The bot";
  const roll = turn.num_dice === 0 ? "rolled no dice" : `rolled ${turn.outcomes.join(", ")}`;
  return `${who} ${roll}: ${turn.points} point${turn.points === 1 ? "" : "s"}`;
}

function showTurn(turn) {
  const tray = $("tray");
  tray.replaceChildren();
  tray.appendChild(el("span", {class: "who", "aria-hidden": "true"}, turn.player === "you" ? "You:" : "Bot:"));
  if (turn.num_dice === 0) {
    tray.appendChild(el("span", {"aria-hidden": "true"}, "rolled no dice"));
  } else {
    turn.outcomes.forEach((face) => tray.appendChild(drawDie(face, turn.sides)));
  }
  tray.appendChild(el("span", {class: "who", "aria-hidden": "true"}, ` +${turn.points}`));
  tray.appendChild(el("span", {class: "sr-only"}, turnWords(turn)));
  tray.setAttribute("aria-label", turnWords(turn));
  const events = $("events");
  events.replaceChildren();
  for (const e of turn.events) {
    events.appendChild(el("span", {class: `event ${EVENT_CLASS[e.kind] || ""}`, "data-kind": e.kind}, eventWords(e)));
  }
}

function describe(turn) {
  const who = turn.player === "you" ? "You" : "Bot";
  const roll = turn.num_dice === 0 ? "rolled 0 dice" :
    `rolled ${turn.num_dice} ${turn.sides}-sided: ${turn.outcomes.join(" ")}`;
  const events = turn.events.length ? ` (${turn.events.map(eventWords).join("; ")})` : "";
  return `${who} ${roll} -> +${turn.points}${events}. You ${turn.scores.you}, Bot ${turn.scores.bot}`;
}

// ----------------------------------------------------------------- state --
function render(previousTurns = 0) {
  const scores = game ? game.scores : {you: 0, bot: 0};
  const goal = game ? game.goal : (policy ? policy.goal : 100);
  $("score-you").textContent = scores.you;
  $("score-bot").textContent = scores.bot;
  $("goal-you").style.width = `${Math.min(100, 100 * scores.you / goal)}%`;
  $("goal-bot").style.width = `${Math.min(100, 100 * scores.bot / goal)}%`;
  $("you-box").classList.toggle("active", !!game && game.to_move === "you");
  $("bot-box").classList.toggle("active", !!game && game.to_move === "bot");
  let status = "Start a new game";
  if (game && game.winner) status = game.winner === "you" ? "You won!" : "The bot won";
  else if (game && game.to_move === "you") {
    status = game.dice_sides === 4 ? "Your turn: Hog Wild, four-sided dice" : "Your turn";
  } else if (game) status = "Bot's turn";
  $("status").textContent = status;
  if (game) {
    document.body.dataset.gameId = game.id;
    document.body.dataset.turns = game.turns.length;
  }

  const canRoll = !!game && game.to_move === "you" && !busy && $("error").hidden;
  // a dice count below the ruleset's least (Neller's Hog has no zero-dice move) is never offered
  document.querySelectorAll(".dice-button").forEach((b) => {
    b.disabled = !canRoll || Number(b.dataset.dice) < (game ? game.min_dice : 0);
  });

  const log = $("log");
  log.replaceChildren();
  if (game) game.turns.forEach((t) => log.appendChild(el("li", {class: t.player}, describe(t))));
  log.scrollTop = log.scrollHeight;
  if (game && game.turns.length > previousTurns) showTurn(game.turns[game.turns.length - 1]);
  else if (!game || game.turns.length === 0) { $("tray").replaceChildren(); $("events").replaceChildren(); }

  const over = $("game-over");
  over.hidden = !(game && game.winner);
  if (game && game.winner) {
    $("game-over-text").textContent =
      `${game.winner === "you" ? "You win" : "The bot wins"} ${Math.max(scores.you, scores.bot)} to ` +
      `${Math.min(scores.you, scores.bot)}`;
  }
  drawTrend();
  drawPolicy();
  refreshHint();
}

async function newGame(event) {
  if (event) event.preventDefault();
  busy = true;
  try {
    const created = await api("POST", "/api/games", {rules: $("rules").value, first: $("first").value});
    await loadPolicy(created.rules);
    game = created;
    localStorage.setItem("hogsolve-game", game.id);
    clearError();
  } catch (err) {
    showError(`Could not start a game: ${err.message}`);
  } finally {
    busy = false;
    render(0);
  }
}

async function roll(n) {
  if (!game || busy || game.to_move !== "you" || !$("error").hidden) return;
  busy = true;
  const before = game.turns.length;
  render(before);
  let rolled = false;
  try {
    game = await api("POST", `/api/games/${game.id}/roll`, {dice: n});
    rolled = true;
  } catch (err) {
    if (err.status === 404) localStorage.removeItem("hogsolve-game");
    showError(err.status === 404 ? "This game has expired. Start a new one." : `The roll failed: ${err.message}`);
  } finally {
    busy = false;
    render(before);
    // replay the bot's answer after yours, so both rolls are seen
    const mine = rolled ? game.turns[before] : null;
    if (mine && game.turns.length > before + 1) {
      showTurn(mine);
      const id = game.id, count = game.turns.length;
      setTimeout(() => { if (game && game.id === id && game.turns.length === count) showTurn(game.turns[count - 1]); }, 700);
    }
  }
}

// ------------------------------------------------------------------ hint --
async function refreshHint() {
  const panel = $("hint-panel");
  panel.hidden = !$("hint-toggle").checked;
  document.querySelectorAll(".dice-button").forEach((b) => b.classList.remove("best"));
  if (panel.hidden || !game || game.to_move !== "you" || !$("error").hidden) {
    $("hint-text").textContent = game && game.winner ? "The game is over." : "Hints appear on your turn.";
    $("hint-chart").replaceChildren();
    return;
  }
  const id = game.id, turns = game.turns.length;
  let hint;
  try {
    hint = await api("GET", `/api/games/${id}/hint`);
  } catch (err) {
    if (game && game.id === id) {
      if (err.status === 404) localStorage.removeItem("hogsolve-game");
      showError(err.status === 404 ? "This game has expired. Start a new one." : `No hint: ${err.message}`);
    }
    return;
  }
  if (!game || game.id !== id || game.turns.length !== turns || hint.best === null) return;
  $("hint-text").textContent =
    `Optimal: roll ${hint.best} dice (win probability ${hint.values[hint.best].toFixed(4)})`;
  const best = document.querySelector(`.dice-button[data-dice="${hint.best}"]`);
  if (best) best.classList.add("best");
  drawHintChart(hint);
}

function drawHintChart(hint) {
  // Bars start at 0 on a labelled axis, so their heights compare honestly.
  const chart = $("hint-chart");
  chart.replaceChildren();
  const left = 34, top = 8, height = 110, step = 26;
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    const y = top + height * (1 - v);
    chart.appendChild(svgEl("line", {x1: left, x2: left + step * hint.values.length, y1: y, y2: y,
                                     stroke: "#e5e7eb"}));
    chart.appendChild(svgText({x: left - 4, y: y + 4, "text-anchor": "end", "font-size": 10, fill: "#6b7280"},
                              v.toFixed(2)));
  }
  hint.values.forEach((v, n) => {
    if (v === null) return;  // not a legal move here
    const h = height * Math.max(0, Math.min(1, v));
    const x = left + 3 + n * step;
    const bar = svgEl("rect", {x, y: top + height - h, width: step - 6, height: Math.max(h, 1),
                               fill: n === hint.best ? "#f59e0b" : "#2563eb"});
    const title = svgEl("title");
    title.textContent = `${n} dice: win probability ${v.toFixed(4)}`;
    bar.appendChild(title);
    chart.appendChild(bar);
    chart.appendChild(svgText({x: x + (step - 6) / 2, y: top + height + 14, "text-anchor": "middle",
                               "font-size": 11}, n));
  });
  chart.appendChild(svgText({x: left + step * hint.values.length / 2, y: top + height + 28,
                             "text-anchor": "middle", "font-size": 10, fill: "#6b7280"},
                            "dice rolled (bar: win probability)"));
  chart.setAttribute("aria-label", "win probability of each dice count: " +
    hint.values.map((v, n) => `${n}: ${v === null ? "not allowed" : v.toFixed(3)}`).join(", "));
}

// ----------------------------------------------------------------- trend --
function startingChance() {
  if (!policy) return null;
  const p = policy.win_probability[0][0];
  return $("first").value === "you" ? p : 1 - p;
}

function drawTrend() {
  const svg = $("trend");
  svg.replaceChildren();
  svg.appendChild(svgEl("line", {x1: 30, x2: 325, y1: 60, y2: 60, stroke: "#cbd5e1", "stroke-dasharray": "4 3"}));
  for (const [y, t] of [[12, "1"], [62, "½"], [112, "0"]]) {
    svg.appendChild(svgText({x: 4, y, "font-size": 11, fill: "#6b7280"}, t));
  }
  const h = game ? game.win_probability : [startingChance()].filter((p) => p !== null);
  if (!h.length) return;
  const n = Math.max(h.length - 1, 1);
  const points = h.map((p, i) => `${30 + 295 * i / n},${110 - 100 * p}`).join(" ");
  if (h.length > 1) {
    svg.appendChild(svgEl("polyline", {points, fill: "none", stroke: "#2563eb", "stroke-width": 2.5}));
  } else {
    svg.appendChild(svgEl("circle", {cx: 30, cy: 110 - 100 * h[0], r: 4, fill: "#2563eb"}));
  }
  const last = h[h.length - 1];
  svg.appendChild(svgText({x: 320, y: 12, "font-size": 12, "font-weight": 700, fill: "#2563eb",
                           "text-anchor": "end", id: "trend-now"},
                          `${game ? "now" : "at the start"} ${(100 * last).toFixed(1)}%`));
  svg.setAttribute("aria-label", `your win probability: ${(100 * last).toFixed(1)}% now`);
}

// ---------------------------------------------------------------- policy --
async function loadPolicy(name) {
  if (policy && policy.rules === name) return;
  policy = await api("GET", `/api/policy/${name}`);
}

function surfaceColour(p) {  // 0 red -> 0.5 white -> 1 blue
  const t = Math.max(0, Math.min(1, p === null ? 0.5 : p));
  const a = t < 0.5 ? [220, 38, 38] : [37, 99, 235];
  const k = Math.abs(t - 0.5) * 2;
  return `rgb(${Math.round(255 + (a[0] - 255) * k)},${Math.round(255 + (a[1] - 255) * k)},${Math.round(255 + (a[2] - 255) * k)})`;
}

function currentState() {
  if (!game || game.winner) return null;
  return game.to_move === "you" ? [game.scores.you, game.scores.bot] : [game.scores.bot, game.scores.you];
}

function drawPolicy() {
  const canvas = $("policy-canvas");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!policy) return;
  const g = policy.goal, cell = MAP.size / g;
  const surface = $("surface-toggle").checked;
  for (let s = 0; s < g; s++) {
    for (let o = 0; o < g; o++) {
      ctx.fillStyle = surface ? surfaceColour(policy.win_probability[s][o]) : DICE_COLOURS[policy.policy[s][o]];
      ctx.fillRect(MAP.left + o * cell, MAP.top + s * cell, cell + 0.5, cell + 0.5);
    }
  }
  // axis ticks: scores every tenth of the goal
  ctx.fillStyle = "#374151";
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = 1;
  ctx.font = "11px system-ui, sans-serif";
  const every = Math.max(1, Math.round(g / 10));
  for (let v = 0; v <= g; v += every) {
    const at = v * cell;
    ctx.textAlign = "center";
    ctx.fillText(String(v), MAP.left + at, MAP.top - 8);
    ctx.beginPath(); ctx.moveTo(MAP.left + at, MAP.top - 5); ctx.lineTo(MAP.left + at, MAP.top); ctx.stroke();
    ctx.textAlign = "right";
    ctx.fillText(String(v), MAP.left - 7, MAP.top + at + 4);
    ctx.beginPath(); ctx.moveTo(MAP.left - 5, MAP.top + at); ctx.lineTo(MAP.left, MAP.top + at); ctx.stroke();
  }
  const mark = (state, colour, radius) => {
    const [s, o] = state;
    const x = MAP.left + (o + 0.5) * cell, y = MAP.top + (s + 0.5) * cell;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.stroke();
  };
  const now = currentState();
  if (now) mark(now, "#111", 7);
  if (cursor) mark(cursor, "#b4451f", 5);
  drawLegend(surface);
}

function drawLegend(surface) {
  const legend = $("legend");
  legend.replaceChildren();
  legend.appendChild(el("strong", {}, surface ? "win probability:" : "dice:"));
  const entries = surface ? [0, 0.25, 0.5, 0.75, 1].map((p) => [surfaceColour(p), `${p}`])
    : DICE_COLOURS.map((c, n) => [c, `${n}`]);
  for (const [colour, label] of entries) {
    const item = el("span");
    const swatch = el("i");
    swatch.style.background = colour;
    item.append(swatch, label);
    legend.appendChild(item);
  }
}

function describeState(s, o) {
  return `score ${s} vs ${o}: roll ${policy.policy[s][o]}, win ${(100 * policy.win_probability[s][o]).toFixed(2)}%`;
}

function showTip(s, o, x, y) {
  const tip = $("tooltip"), wrap = $("policy-wrap");
  tip.hidden = false;
  tip.textContent = describeState(s, o);
  // keep it inside the heatmap's box (and so inside the window)
  const width = tip.offsetWidth, height = tip.offsetHeight;
  const maxX = wrap.clientWidth - width - 2, maxY = wrap.clientHeight - height - 2;
  tip.style.left = `${Math.max(0, Math.min(x + 12, maxX))}px`;
  tip.style.top = `${Math.max(0, Math.min(y + 12, maxY))}px`;
}

function stateAt(event) {
  const canvas = $("policy-canvas"), rect = canvas.getBoundingClientRect();
  const scale = canvas.width / rect.width;
  const x = (event.clientX - rect.left) * scale - MAP.left, y = (event.clientY - rect.top) * scale - MAP.top;
  const g = policy.goal;
  const o = Math.floor(x / MAP.size * g), s = Math.floor(y / MAP.size * g);
  return (s < 0 || o < 0 || s >= g || o >= g) ? null : [s, o, event.clientX - rect.left, event.clientY - rect.top];
}

function hover(event) {
  if (!policy) return;
  const at = stateAt(event);
  if (!at) { $("tooltip").hidden = true; return; }
  showTip(at[0], at[1], at[2], at[3]);
}

function moveCursor(event) {
  if (!policy) return;
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (!(event.key in moves)) return;
  event.preventDefault();
  const g = policy.goal;
  const [ds, dob] = moves[event.key];
  const [s, o] = cursor || currentState() || [0, 0];
  cursor = [Math.max(0, Math.min(g - 1, s + ds)), Math.max(0, Math.min(g - 1, o + dob))];
  drawPolicy();
  const canvas = $("policy-canvas"), scale = canvas.getBoundingClientRect().width / canvas.width;
  const cell = MAP.size / g;
  showTip(cursor[0], cursor[1], (MAP.left + (cursor[1] + 0.5) * cell) * scale,
          (MAP.top + (cursor[0] + 0.5) * cell) * scale);
  $("cursor-text").textContent = describeState(cursor[0], cursor[1]);
}

// ------------------------------------------------------------------ keys --
function onKey(event) {
  if (event.ctrlKey || event.altKey || event.metaKey) return;  // the browser's shortcuts
  const target = event.target;
  if (target.tagName === "SELECT" || target.id === "policy-canvas" ||
      (target.tagName === "INPUT" && target.type !== "checkbox")) return;
  if (/^[0-9]$/.test(event.key)) roll(Number(event.key));
  else if (event.key === "t" || event.key === "T") roll(10);
}

// ----------------------------------------------------------------- start --
async function start() {
  const buttons = $("dice-buttons");
  for (let n = 0; n <= 10; n++) {
    const b = el("button", {type: "button", class: "dice-button", "data-dice": n,
                            "aria-label": `roll ${n} dice`}, String(n));
    b.disabled = true;
    b.addEventListener("click", () => roll(n));
    buttons.appendChild(b);
  }
  let info;
  try {
    info = await api("GET", "/api/rulesets");
  } catch (err) {
    showError(`The hogsolve server cannot be reached: ${err.message}`);
    return;
  }
  const caveats = {};
  for (const r of info.rulesets) {
    $("rules").appendChild(el("option", {value: r.name, title: r.description}, r.name));
    caveats[r.name] = r.caveat;
  }
  // a ruleset without a proven optimum (sp22) says so wherever it is chosen
  const showCaveat = () => {
    const caveat = caveats[$("rules").value];
    $("caveat").hidden = !caveat;
    $("caveat").textContent = caveat ? `${$("rules").value} has no optimal value, so the bot is not proven ` +
      `optimal: ${caveat}` : "";
  };
  $("rules").value = localStorage.getItem("hogsolve-rules") || info.default;
  if (!$("rules").value) $("rules").value = info.default;
  showCaveat();
  $("first").value = localStorage.getItem("hogsolve-first") === "bot" ? "bot" : "you";
  $("hint-toggle").checked = localStorage.getItem("hogsolve-hint") === "1";
  $("setup").addEventListener("submit", newGame);
  $("play-again").addEventListener("click", () => newGame());
  $("error-new-game").addEventListener("click", () => newGame());
  $("hint-toggle").addEventListener("change", () => {
    localStorage.setItem("hogsolve-hint", $("hint-toggle").checked ? "1" : "0");
    refreshHint();
  });
  $("first").addEventListener("change", () => { localStorage.setItem("hogsolve-first", $("first").value); drawTrend(); });
  $("rules").addEventListener("change", async () => {
    localStorage.setItem("hogsolve-rules", $("rules").value);
    showCaveat();
    if (!game) {
      try { await loadPolicy($("rules").value); } catch (err) { showError(err.message); }
      render(0);
    }
  });
  $("surface-toggle").addEventListener("change", drawPolicy);
  $("policy-canvas").addEventListener("mousemove", hover);
  $("policy-canvas").addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
  $("policy-canvas").addEventListener("keydown", moveCursor);
  $("policy-canvas").addEventListener("blur", () => { cursor = null; $("tooltip").hidden = true; drawPolicy(); });
  document.addEventListener("keydown", onKey);
  const saved = localStorage.getItem("hogsolve-game");
  if (saved) {  // reloading the page resumes the game
    try {
      game = await api("GET", `/api/games/${saved}`);
      $("rules").value = game.rules;
      await loadPolicy(game.rules);
    } catch (err) {
      localStorage.removeItem("hogsolve-game");
      game = null;
    }
  }
  try {
    if (!game) await loadPolicy($("rules").value);
  } catch (err) {
    showError(`Could not load the policy: ${err.message}`);
  }
  render(0);
  document.body.dataset.ready = "1";
}

start();
