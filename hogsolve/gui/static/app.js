// hogsolve GUI: play the optimal bot and explore its policy.
// All game logic lives on the server; this page draws its state.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const DICE_COLOURS = ["#1d2430", "#fde68a", "#fcd34d", "#fbbf24", "#f59e0b", "#f97316",
                      "#ef4444", "#db2777", "#9333ea", "#4f46e5", "#1e40af"];
const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
              4: [[28, 28], [72, 28], [28, 72], [72, 72]],
              5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
              6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]]};

let game = null;        // the server's state of the current game
let policy = null;      // {goal, policy, win_probability} of the current ruleset
let busy = false;       // a request is on its way

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
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

// ------------------------------------------------------------------ dice --
function drawDie(face, sides) {
  const svg = svgEl("svg", {viewBox: "0 0 100 100", class: "die", "data-face": face, "data-sides": sides});
  const one = face === 1;
  if (sides === 4) {  // a four-sided die: a triangle with its number
    svg.appendChild(svgEl("polygon", {points: "50,6 95,90 5,90", fill: one ? "#fee2e2" : "#dcfce7",
                                      stroke: "#166534", "stroke-width": 4, "stroke-linejoin": "round"}));
    const t = svgEl("text", {x: 50, y: 74, "text-anchor": "middle", "font-size": 38, "font-weight": 700,
                             fill: "#14532d"});
    t.textContent = face;
    svg.appendChild(t);
  } else {
    svg.appendChild(svgEl("rect", {x: 4, y: 4, width: 92, height: 92, rx: 16, fill: one ? "#fee2e2" : "#fff",
                                   stroke: "#1d2430", "stroke-width": 4}));
    for (const [x, y] of PIPS[face] || []) {
      svg.appendChild(svgEl("circle", {cx: x, cy: y, r: 9, fill: one ? "#dc2626" : "#1d2430"}));
    }
  }
  return svg;
}

function showTurn(turn) {
  const tray = $("tray");
  tray.replaceChildren();
  tray.appendChild(el("span", {class: "who"}, turn.player === "you" ? "You:" : "Bot:"));
  if (turn.num_dice === 0) {
    tray.appendChild(el("span", {}, "rolled no dice"));
  } else {
    turn.outcomes.forEach((face) => tray.appendChild(drawDie(face, turn.sides)));
  }
  tray.appendChild(el("span", {class: "who"}, ` +${turn.points}`));
  const events = $("events");
  events.replaceChildren();
  for (const e of turn.events) {
    const kind = e.startsWith("Pig") ? "pig" : e.startsWith("Swine") ? "swap" : e.startsWith("Hog") ? "wild" : "";
    events.appendChild(el("span", {class: `event ${kind}`}, e));
  }
}

function describe(turn) {
  const who = turn.player === "you" ? "You" : "Bot";
  const roll = turn.num_dice === 0 ? "rolled 0 dice" :
    `rolled ${turn.num_dice} ${turn.sides}-sided: ${turn.outcomes.join(" ")}`;
  const events = turn.events.length ? ` (${turn.events.join("; ")})` : "";
  return `${who} ${roll} -> +${turn.points}${events}. You ${turn.scores.you}, Bot ${turn.scores.bot}`;
}

// ----------------------------------------------------------------- state --
function render(previousTurns = 0) {
  if (!game) return;
  $("score-you").textContent = game.scores.you;
  $("score-bot").textContent = game.scores.bot;
  $("goal-you").style.width = `${Math.min(100, 100 * game.scores.you / game.goal)}%`;
  $("goal-bot").style.width = `${Math.min(100, 100 * game.scores.bot / game.goal)}%`;
  $("you-box").classList.toggle("active", game.to_move === "you");
  $("bot-box").classList.toggle("active", game.to_move === "bot");
  let status = "";
  if (game.winner) status = game.winner === "you" ? "You won!" : "The bot won";
  else if (game.to_move === "you") status = game.dice_sides === 4 ? "Your turn: Hog Wild, four-sided dice" : "Your turn";
  else status = "Bot's turn";
  $("status").textContent = status;
  document.body.dataset.gameId = game.id;
  document.body.dataset.turns = game.turns.length;

  const canRoll = game.to_move === "you" && !busy;
  document.querySelectorAll(".dice-button").forEach((b) => { b.disabled = !canRoll; });

  const log = $("log");
  log.replaceChildren();
  game.turns.forEach((t) => log.appendChild(el("li", {class: t.player}, describe(t))));
  log.scrollTop = log.scrollHeight;
  if (game.turns.length > previousTurns) showTurn(game.turns[game.turns.length - 1]);
  else if (game.turns.length === 0) { $("tray").replaceChildren(); $("events").replaceChildren(); }

  const over = $("game-over");
  over.hidden = !game.winner;
  if (game.winner) {
    $("game-over-text").textContent =
      `${game.winner === "you" ? "You win" : "The bot wins"} ${Math.max(game.scores.you, game.scores.bot)} to ` +
      `${Math.min(game.scores.you, game.scores.bot)}`;
  }
  drawTrend();
  drawPolicy();
  refreshHint();
}

async function newGame(event) {
  if (event) event.preventDefault();
  busy = true;
  try {
    game = await api("POST", "/api/games", {rules: $("rules").value, first: $("first").value});
    localStorage.setItem("hogsolve-game", game.id);
    await loadPolicy(game.rules);
  } catch (err) {
    $("status").textContent = `Error: ${err.message}`;
  } finally {
    busy = false;
    render(0);
  }
}

async function roll(n) {
  if (!game || busy || game.to_move !== "you") return;
  busy = true;
  const before = game.turns.length;
  render(before);
  try {
    game = await api("POST", `/api/games/${game.id}/roll`, {dice: n});
  } catch (err) {
    $("status").textContent = `Error: ${err.message}`;
  } finally {
    busy = false;
    render(before);
    // replay the bot's answer after yours, so both rolls are seen
    const mine = game.turns[before];
    if (mine && game.turns.length > before + 1) {
      showTurn(mine);
      setTimeout(() => showTurn(game.turns[game.turns.length - 1]), 700);
    }
  }
}

// ------------------------------------------------------------------ hint --
async function refreshHint() {
  const panel = $("hint-panel");
  panel.hidden = !$("hint-toggle").checked;
  document.querySelectorAll(".dice-button").forEach((b) => b.classList.remove("best"));
  if (panel.hidden || !game || game.to_move !== "you") {
    $("hint-text").textContent = game && game.winner ? "The game is over." : "Hints appear on your turn.";
    $("hint-chart").replaceChildren();
    return;
  }
  const id = game.id, turns = game.turns.length;
  const hint = await api("GET", `/api/games/${id}/hint`);
  if (!game || game.id !== id || game.turns.length !== turns) return;
  $("hint-text").textContent =
    `Optimal: roll ${hint.best} dice (win probability ${hint.values[hint.best].toFixed(4)})`;
  document.querySelector(`.dice-button[data-dice="${hint.best}"]`).classList.add("best");
  const chart = $("hint-chart");
  chart.replaceChildren();
  const lo = Math.min(...hint.values), hi = Math.max(...hint.values);
  const floor = Math.max(0, lo - (hi - lo) * 0.25 - 1e-9);
  hint.values.forEach((v, n) => {
    const h = 110 * (v - floor) / Math.max(hi - floor, 1e-9);
    const x = 8 + n * 29;
    chart.appendChild(svgEl("rect", {x, y: 120 - h, width: 22, height: Math.max(h, 1),
                                     fill: n === hint.best ? "#f59e0b" : "#2563eb"}));
    const label = svgEl("text", {x: x + 11, y: 136, "text-anchor": "middle", "font-size": 11});
    label.textContent = n;
    chart.appendChild(label);
    const title = svgEl("title");
    title.textContent = `${n} dice: ${v.toFixed(4)}`;
    chart.lastChild.previousSibling.appendChild(title);
  });
}

// ----------------------------------------------------------------- trend --
function drawTrend() {
  const svg = $("trend");
  svg.replaceChildren();
  svg.appendChild(svgEl("line", {x1: 30, x2: 325, y1: 60, y2: 60, stroke: "#cbd5e1", "stroke-dasharray": "4 3"}));
  for (const [y, t] of [[12, "1"], [62, "½"], [112, "0"]]) {
    const label = svgEl("text", {x: 4, y, "font-size": 11, fill: "#6b7280"});
    label.textContent = t;
    svg.appendChild(label);
  }
  if (!game) return;
  const h = game.win_probability, n = Math.max(h.length - 1, 1);
  const points = h.map((p, i) => `${30 + 295 * i / n},${110 - 100 * p}`).join(" ");
  svg.appendChild(svgEl("polyline", {points, fill: "none", stroke: "#2563eb", "stroke-width": 2.5}));
  const last = h[h.length - 1];
  const label = svgEl("text", {x: 300, y: 12, "font-size": 12, "font-weight": 700, fill: "#2563eb",
                               "text-anchor": "end", id: "trend-now"});
  label.textContent = `now ${(100 * last).toFixed(1)}%`;
  svg.appendChild(label);
}

// ---------------------------------------------------------------- policy --
async function loadPolicy(name) {
  if (policy && policy.rules === name) return;
  policy = await api("GET", `/api/policy/${name}`);
}

function surfaceColour(p) {  // 0 red -> 0.5 white -> 1 blue
  const t = Math.max(0, Math.min(1, p));
  const a = t < 0.5 ? [220, 38, 38] : [37, 99, 235];
  const k = Math.abs(t - 0.5) * 2;
  return `rgb(${Math.round(255 + (a[0] - 255) * k)},${Math.round(255 + (a[1] - 255) * k)},${Math.round(255 + (a[2] - 255) * k)})`;
}

function drawPolicy() {
  const canvas = $("policy-canvas");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!policy) return;
  const g = policy.goal, cell = canvas.width / g;
  const surface = $("surface-toggle").checked;
  for (let s = 0; s < g; s++) {
    for (let o = 0; o < g; o++) {
      ctx.fillStyle = surface ? surfaceColour(policy.win_probability[s][o]) : DICE_COLOURS[policy.policy[s][o]];
      ctx.fillRect(o * cell, s * cell, cell + 0.5, cell + 0.5);
    }
  }
  if (game && !game.winner) {  // the current state, from the mover's side
    const [s, o] = game.to_move === "you" ? [game.scores.you, game.scores.bot] : [game.scores.bot, game.scores.you];
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc((o + 0.5) * cell, (s + 0.5) * cell, 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = "#111";
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }
  const legend = $("legend");
  legend.replaceChildren();
  if (surface) {
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      const item = el("span");
      const swatch = el("i");
      swatch.style.background = surfaceColour(p);
      item.append(swatch, `${p}`);
      legend.appendChild(item);
    }
  } else {
    DICE_COLOURS.forEach((c, n) => {
      const item = el("span");
      const swatch = el("i");
      swatch.style.background = c;
      item.append(swatch, `${n}`);
      legend.appendChild(item);
    });
  }
}

function hover(event) {
  const tip = $("tooltip");
  if (!policy) return;
  const canvas = $("policy-canvas"), rect = canvas.getBoundingClientRect();
  const g = policy.goal;
  const o = Math.floor((event.clientX - rect.left) / rect.width * g);
  const s = Math.floor((event.clientY - rect.top) / rect.height * g);
  if (s < 0 || o < 0 || s >= g || o >= g) { tip.hidden = true; return; }
  tip.hidden = false;
  tip.textContent = `score ${s} vs ${o}: roll ${policy.policy[s][o]}, win ${(100 * policy.win_probability[s][o]).toFixed(2)}%`;
  tip.style.left = `${Math.min(event.clientX - rect.left + 12, 240)}px`;
  tip.style.top = `${event.clientY - rect.top + 12}px`;
}

// ----------------------------------------------------------------- start --
async function start() {
  const buttons = $("dice-buttons");
  for (let n = 0; n <= 10; n++) {
    const b = el("button", {type: "button", class: "dice-button", "data-dice": n}, String(n));
    b.disabled = true;
    b.addEventListener("click", () => roll(n));
    buttons.appendChild(b);
  }
  const info = await api("GET", "/api/rulesets");
  for (const r of info.rulesets) {
    const option = el("option", {value: r.name, title: r.description}, r.name);
    $("rules").appendChild(option);
  }
  $("rules").value = info.default;
  $("setup").addEventListener("submit", newGame);
  $("play-again").addEventListener("click", () => newGame());
  $("hint-toggle").addEventListener("change", refreshHint);
  $("surface-toggle").addEventListener("change", drawPolicy);
  $("policy-canvas").addEventListener("mousemove", hover);
  $("policy-canvas").addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
    if (/^[0-9]$/.test(event.key)) roll(Number(event.key));
    else if (event.key === "t" || event.key === "T") roll(10);
  });
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
  if (!game) await loadPolicy(info.default);
  render(0);
  document.body.dataset.ready = "1";
}

start();
