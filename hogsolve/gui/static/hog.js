// hogsolve: Hog against the optimal bot, and its policy.
// All game logic lives on the server; this page draws its state.
import {$, DICE_COLOURS, api, patiently, el, svgEl, svgText, showError, clearError, showProgress, drawDie,
        surfaceColour, drawScoreboard, percent, MAP, drawGrid, gridStateAt, legend} from "./common.js";
import {failed, makeMove, newGame as startNewGame, resumeGame} from "./botgame.js";

const KEY = "hogsolve-game";  // the game this browser plays, resumed after a reload
let game = null;        // the server's state of the current game
let policy = null;      // {rules, goal, policy, win_probability, memory?} shown in the map
let wanted = null;      // the policy the page asked for last (a slower earlier answer is dropped)
const page = {busy: false, render: () => render()};  // busy: a request is on its way
let cursor = null;      // [score, opponent_score] chosen with the arrow keys on the heatmap
let shownTurns = 0;     // turns already drawn in the tray

function eventWords(e) {  // the engine words every rule event it applied: {kind, name, text, ...numbers}
  return e.text;
}
const EVENT_CLASS = {pig_out: "pig", swine_swap: "swap", hog_wild: "wild", free_bacon: "", extra_turn: "swap",
                     feral_hogs: "wild", bonus: "wild", points_bonus: "wild", turn_score: "wild", piggy_back: "pig"};

const gained = (turn) => turn.points + (turn.feral_bonus || 0);  // what the turn added, Feral Hogs included

function turnWords(turn) {
  const who = turn.player === "you" ? "You" : "The bot";
  const roll = turn.num_dice === 0 ? "rolled no dice" : `rolled ${turn.outcomes.join(", ")}`;
  const events = turn.events.length ? ` (${turn.events.map(eventWords).join("; ")})` : "";
  return `${who} ${roll}: +${gained(turn)}${events}`;
}

// The tray keeps every turn since your last move, one row each: your roll, then each of the
// bot's turns (extra turns included) as they happen; nothing replaces anything.
function trayRow(turn) {
  const row = el("div", {class: `tray-row ${turn.player}`, "data-player": turn.player});
  row.appendChild(el("span", {class: "who", "aria-hidden": "true"}, turn.player === "you" ? "You:" : "Bot:"));
  if (turn.num_dice === 0) row.appendChild(el("span", {"aria-hidden": "true"}, "no dice"));
  else turn.outcomes.forEach((face) => row.appendChild(drawDie(face, turn.sides)));
  row.appendChild(el("span", {class: "gain", "aria-hidden": "true"}, `+${gained(turn)}`));
  for (const e of turn.events) {
    row.appendChild(el("span", {class: `event ${EVENT_CLASS[e.kind] || ""}`, "data-kind": e.kind, "aria-hidden": "true"},
                       eventWords(e)));
  }
  row.appendChild(el("span", {class: "sr-only"}, turnWords(turn)));
  return row;
}

function showNewTurns() {
  const tray = $("tray");
  if (!game || game.turns.length === 0) { tray.replaceChildren(); shownTurns = 0; return; }
  const fresh = game.turns.slice(shownTurns);
  if (fresh.length && fresh[0].player === "you") tray.replaceChildren();  // a new round of the tray
  if (shownTurns > game.turns.length) tray.replaceChildren();
  fresh.forEach((turn, i) => {  // one after another, as they happened
    const row = trayRow(turn);
    row.style.animationDelay = `${i * 0.35}s`;
    tray.appendChild(row);
  });
  while (tray.children.length > 12) tray.removeChild(tray.firstChild);
  shownTurns = game.turns.length;
}

function describe(turn) {
  const who = turn.player === "you" ? "You" : "Bot";
  const roll = turn.num_dice === 0 ? "rolled 0 dice" :
    `rolled ${turn.num_dice} ${turn.sides}-sided: ${turn.outcomes.join(" ")}`;
  const events = turn.events.length ? ` (${turn.events.map(eventWords).join("; ")})` : "";
  return `${who} ${roll} -> +${gained(turn)}${events}. You ${turn.scores.you}, Bot ${turn.scores.bot}`;
}

// ----------------------------------------------------------------- state --
function render() {
  const scores = drawScoreboard(game, policy ? policy.goal : 100);
  let status = "Start a new game";
  if (game && game.winner) {
    status = game.winner === "you" ? "You won!" : "The bot won";
    if (game.seed !== undefined) {  // told only now: the seed predicts every roll
      status += `. Dice seed ${game.seed}: hogsolve play --rules ${game.rules} --seed ${game.seed} rolls them again`;
    }
  }
  else if (game && game.to_move === "you") {
    status = game.dice_sides === 4 ? "Your turn: Hog Wild, four-sided dice" : "Your turn";
  } else if (game) status = "Bot's turn";
  $("status").textContent = status;
  if (game) {
    document.body.dataset.gameId = game.id;
    document.body.dataset.turns = game.turns.length;
  }
  $("new-game").disabled = page.busy;

  const canRoll = !!game && game.to_move === "you" && !page.busy && $("error").hidden;
  // a dice count below the ruleset's least (Neller's Hog has no zero-dice move) is not offered at all
  document.querySelectorAll(".dice-button").forEach((b) => {
    const n = Number(b.dataset.dice);
    b.hidden = !!game && (n < game.min_dice || n > game.max_dice);
    b.disabled = !canRoll;
  });

  const log = $("log");
  log.replaceChildren();
  if (game) game.turns.forEach((t) => log.appendChild(el("li", {class: t.player}, describe(t))));
  log.scrollTop = log.scrollHeight;
  showNewTurns();

  const over = $("game-over");
  over.hidden = !(game && game.winner);
  if (game && game.winner) {
    $("game-over-text").textContent =
      `${game.winner === "you" ? "You win" : "The bot wins"} ${Math.max(scores.you, scores.bot)} to ` +
      `${Math.min(scores.you, scores.bot)}`;
  }
  drawTrend();
  followMemories();
  drawPolicy();
  refreshHint();
}

function keepFocus(n) {  // after a roll the focus stays on the dice, never falls to <body>
  const button = document.querySelector(`.dice-button[data-dice="${n}"]`);
  if (button && (document.activeElement === document.body || document.activeElement === button)) {
    button.focus({preventScroll: true});
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  const body = {rules: $("rules").value, first: $("first").value};
  await startNewGame(page, KEY, body, async (created) => {
    game = created;
    shownTurns = 0;
    await loadPolicy(created.rules, game.memories);
  });
  const first = document.querySelector(".dice-button:not(:disabled)");
  if (game && first) first.focus();  // focus on the first move, not lost to the page body
}

async function roll(n) {
  if (!game || page.busy || game.to_move !== "you" || !$("error").hidden) return;
  if (n < game.min_dice || n > game.max_dice) return;
  page.busy = true;
  render();
  game = await makeMove(KEY, game, {dice: n}, "The roll failed");
  page.busy = false;
  render();
  keepFocus(n);
}

// ------------------------------------------------------------------ hint --
async function refreshHint() {
  const panel = $("hint-panel");
  panel.hidden = !$("hint-toggle").checked;
  document.querySelectorAll(".dice-button").forEach((b) => { b.classList.remove("best"); b.removeAttribute("data-best"); });
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
    if (game && game.id === id) failed(KEY, err, "No hint");
    return;
  }
  if (!game || game.id !== id || game.turns.length !== turns || hint.best === null) return;
  $("hint-text").textContent = hint.proven === false
    ? `Best by the unproven table: roll ${hint.best} dice (win probability ${hint.values[hint.best].toFixed(4)}, not proven)`
    : `Optimal: roll ${hint.best} dice (win probability ${hint.values[hint.best].toFixed(4)})`;
  const best = document.querySelector(`.dice-button[data-dice="${hint.best}"]`);
  if (best) { best.classList.add("best"); best.dataset.best = "best"; }
  drawHintChart(hint);
}

function niceCeiling(x) {  // 1, 2 or 5 times a power of ten, at least x
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= x * (1 - 1e-12));
}

function drawHintChart(hint) {
  // Win probabilities of the moves differ by little (0.49 against 0.50), so bars from 0 to 1 all
  // look like one half. Each bar is what a move gives up against the best move instead: 0 for the
  // best, hanging down on a labelled axis that starts at 0, so the heights compare honestly.
  const chart = $("hint-chart");
  chart.replaceChildren();
  const left = 44, top = 8, height = 110, step = 26;
  const legal = hint.values.filter((v) => v !== null);
  const best = Math.max(...legal);
  const most = niceCeiling(Math.max(1e-4, ...legal.map((v) => best - v)));
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const y = top + height * f;
    chart.appendChild(svgEl("line", {x1: left, x2: left + step * hint.values.length, y1: y, y2: y,
                                     stroke: "#e5e7eb"}));
    chart.appendChild(svgText({x: left - 4, y: y + 4, "text-anchor": "end", "font-size": 10, fill: "#6b7280"},
                              f === 0 ? "0" : `−${Number((most * f).toPrecision(2))}`));
  }
  hint.values.forEach((v, n) => {
    if (v === null) return;  // not a legal move here
    const h = height * Math.min(1, (best - v) / most);
    const x = left + 3 + n * step;
    const bar = svgEl("rect", {x, y: top, width: step - 6, height: Math.max(h, 1.5),
                               fill: n === hint.best ? "#1d2430" : "#93a3b8"});
    const title = svgEl("title");
    title.textContent = `${n} dice: win probability ${v.toFixed(4)} (${(best - v).toFixed(4)} below the best)`;
    bar.appendChild(title);
    chart.appendChild(bar);
    chart.appendChild(svgText({x: x + (step - 6) / 2, y: top + height + 14, "text-anchor": "middle",
                               "font-size": 11, "font-weight": n === hint.best ? 700 : 400}, n));
  });
  chart.appendChild(svgText({x: left + step * hint.values.length / 2, y: top + height + 28,
                             "text-anchor": "middle", "font-size": 10, fill: "#6b7280"},
                            "dice rolled (bar: win probability given up; dark: best)"));
  chart.setAttribute("aria-label", "win probability of each dice count: " +
    hint.values.map((v, n) => `${n}: ${v === null ? "not allowed" : v.toFixed(3)}`).join(", "));
  chart.dataset.scale = String(most);
}

// ----------------------------------------------------------------- trend --
function drawTrend() {
  const svg = $("trend");
  svg.replaceChildren();
  svg.appendChild(svgEl("line", {x1: 30, x2: 325, y1: 60, y2: 60, stroke: "#cbd5e1", "stroke-dasharray": "4 3"}));
  for (const [y, t] of [[12, "1"], [62, "½"], [112, "0"]]) {
    svg.appendChild(svgText({x: 4, y, "font-size": 11, fill: "#6b7280"}, t));
  }
  let h = [];
  if (game) h = game.win_probability.filter((p) => p !== null);
  else if (policy && policy.rules === $("rules").value && !policy.memory_size) {
    const p = policy.win_probability[0][0];
    h = [$("first").value === "you" ? p : 1 - p];
  }
  if (!h.length) return;
  const n = Math.max(h.length - 1, 1);
  const points = h.map((p, i) => `${30 + 295 * i / n},${110 - 100 * p}`).join(" ");
  if (h.length > 1) svg.appendChild(svgEl("polyline", {points, fill: "none", stroke: "#2563eb", "stroke-width": 2.5}));
  else svg.appendChild(svgEl("circle", {cx: 30, cy: 110 - 100 * h[0], r: 4, fill: "#2563eb"}));
  const last = h[h.length - 1];
  svg.appendChild(svgText({x: 320, y: 12, "font-size": 12, "font-weight": 700, fill: "#2563eb",
                           "text-anchor": "end", id: "trend-now"},
                          `${game ? "now" : "at the start"} ${percent(last)}`));
  svg.setAttribute("aria-label", `your win probability: ${percent(last)} now`);
}

// ---------------------------------------------------------------- policy --
async function loadPolicy(name, memories) {
  const memory = memories ? `?memory=${memories.join(",")}` : "";
  const key = `${name}${memory}`;
  wanted = key;
  if (policy && policy.key === key) return;
  const answer = await patiently("GET", `/api/policy/${encodeURIComponent(name)}${memory}`, undefined, showProgress);
  if (wanted !== key) return;  // the choice changed meanwhile: a later request draws
  answer.key = key;
  policy = answer;
  showMemoryChoice();
}

function showMemoryChoice() {
  const box = $("memory-choice");
  box.hidden = !(policy && policy.memory_size);
  if (box.hidden) return;
  for (const id of ["memory-mover", "memory-other"]) {
    const select = $(id);
    if (select.options.length !== policy.memory_size) {
      select.replaceChildren(...Array.from({length: policy.memory_size}, (_, i) => el("option", {value: i}, String(i))));
    }
  }
  $("memory-mover").value = policy.memory[0];
  $("memory-other").value = policy.memory[1];
  $("memory-note").textContent = `Feral Hogs: the map shows the states where the mover last ` +
    `${policy.memory_kind === "dice" ? "rolled" : "scored"} ${policy.memory[0]} and the other player ` +
    `${policy.memory[1]}${game && !game.winner ? " (following the game)" : ""}.`;
}

function followMemories() {  // under Feral Hogs the map shows the game's own memories
  if (!game || !game.memories || !policy || policy.rules !== game.rules) return;
  const [a, b] = game.memories;
  if (policy.memory && policy.memory[0] === a && policy.memory[1] === b) return;
  loadPolicy(game.rules, game.memories).then(drawPolicy).catch((err) => showError(err.message));
}

function currentState() {
  if (!game || game.winner || !policy || policy.rules !== game.rules) return null;
  return game.to_move === "you" ? [game.scores.you, game.scores.bot] : [game.scores.bot, game.scores.you];
}

function drawPolicy() {
  const canvas = $("policy-canvas");
  if (!policy) { canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height); return; }
  const surface = $("surface-toggle").checked;
  const marks = [];
  const now = currentState();
  if (now) marks.push([now, "#111", 7]);
  if (cursor) marks.push([cursor, "#2563eb", 5]);
  drawGrid(canvas, policy.goal, (s, o) => surface ? surfaceColour(policy.win_probability[s][o])
    : DICE_COLOURS[policy.policy[s][o]], marks);
  canvas.dataset.rules = policy.rules;
  canvas.dataset.memory = policy.memory ? policy.memory.join(",") : "";
  $("map-title").textContent = `${policy.rules}${policy.proven === false ? " (not proven optimal)" : ""}`;
  legend($("legend"), surface ? "win probability:" : "dice:", surface
    ? [0, 0.25, 0.5, 0.75, 1].map((p) => [surfaceColour(p), `${p}`]) : DICE_COLOURS.map((c, n) => [c, `${n}`]));
}

function describeState(s, o) {
  return `score ${s} vs ${o}: roll ${policy.policy[s][o]}, win ${percent(policy.win_probability[s][o], 2)}`;
}

function showTip(s, o, x, y) {
  const tip = $("tooltip"), wrap = $("policy-wrap");
  tip.hidden = false;
  tip.textContent = describeState(s, o);
  const width = tip.offsetWidth, height = tip.offsetHeight;
  const maxX = wrap.clientWidth - width - 2, maxY = wrap.clientHeight - height - 2;
  tip.style.left = `${Math.max(0, Math.min(x + 12, maxX))}px`;
  tip.style.top = `${Math.max(0, Math.min(y + 12, maxY))}px`;
}

function hover(event) {
  if (!policy) return;
  const at = gridStateAt($("policy-canvas"), policy.goal, event);
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
async function chooseRules() {
  localStorage.setItem("hogsolve-rules", $("rules").value);
  showCaveat();
  if (!game || game.rules !== $("rules").value) {
    try {
      await loadPolicy($("rules").value, null);
    } catch (err) {
      showError(err.message);
    }
    render();
  }
}

let caveats = {};
function showCaveat() {
  const caveat = caveats[$("rules").value];
  $("caveat").hidden = !caveat;
  $("caveat").textContent = caveat ? `${$("rules").value} has no optimal value, so the bot is not proven ` +
    `optimal: ${caveat}` : "";
}

async function start() {
  const buttons = $("dice-buttons");
  for (let n = 0; n <= 10; n++) {
    const b = el("button", {type: "button", class: "dice-button", "data-dice": n, "aria-label": `roll ${n} dice`},
                 String(n));
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
  const names = [];
  for (const r of info.rulesets.filter((r) => r.family === "hog")) {
    const label = r.semesters.length ? `${r.name} (also ${r.semesters.join(", ")})` : r.name;
    $("rules").appendChild(el("option", {value: r.name, title: r.description}, label));
    for (const semester of r.semesters) {  // every semester by its own name: the same rules
      $("rules").appendChild(el("option", {value: r.name, title: r.description, "data-semester": semester},
                                `${semester} (${r.name}'s rules)`));
    }
    caveats[r.name] = r.caveat;
    names.push(r.name);
  }
  const saved = localStorage.getItem("hogsolve-rules");
  const first = names.includes(info.default) ? info.default : names[0];
  $("rules").value = names.includes(saved) ? saved : first;
  showCaveat();
  $("first").value = localStorage.getItem("hogsolve-first") === "bot" ? "bot" : "you";
  $("hint-toggle").checked = localStorage.getItem("hogsolve-hint") === "1";
  $("setup").addEventListener("submit", newGame);
  $("play-again").addEventListener("click", () => newGame());
  $("error-new-game").addEventListener("click", () => { clearError(); newGame(); });
  $("hint-toggle").addEventListener("change", () => {
    localStorage.setItem("hogsolve-hint", $("hint-toggle").checked ? "1" : "0");
    refreshHint();
  });
  $("first").addEventListener("change", () => { localStorage.setItem("hogsolve-first", $("first").value); drawTrend(); });
  $("rules").addEventListener("change", chooseRules);
  for (const id of ["memory-mover", "memory-other"]) {
    $(id).addEventListener("change", async () => {
      try {
        await loadPolicy(policy.rules, [Number($("memory-mover").value), Number($("memory-other").value)]);
      } catch (err) { showError(err.message); }
      drawPolicy();
    });
  }
  $("surface-toggle").addEventListener("change", drawPolicy);
  $("policy-canvas").addEventListener("mousemove", hover);
  $("policy-canvas").addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
  $("policy-canvas").addEventListener("keydown", moveCursor);
  $("policy-canvas").addEventListener("blur", () => { cursor = null; $("tooltip").hidden = true; drawPolicy(); });
  document.addEventListener("keydown", onKey);
  game = await resumeGame(KEY, "hog");  // reloading the page resumes the game
  if (game) {
    $("rules").value = game.rules;
    shownTurns = game.turns.length;
  }
  try {
    await loadPolicy(game ? game.rules : $("rules").value, game ? game.memories : null);
  } catch (err) {
    showError(`Could not load the policy: ${err.message}`);
  }
  render();
  document.body.dataset.ready = "1";
}

// What a test or a curious reader may inspect from the console; nothing on the page uses it.
window.hogsolvePage = Object.freeze({policy: () => policy, game: () => game});

start();
