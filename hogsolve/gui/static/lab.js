// hogsolve lab: one strategy file against the optimum, redrawn whenever the server re-runs it.
import {$, api, el, showError, clearError, drawChoiceMaps, gridStateAt, legend, choiceColour, lossColour} from "./common.js";
import {liveSocket} from "./socket.js";

let shown = null;  // the last payload with figures
let chosenState = null;  // the state the student clicked: shown again after every run
let runningTimer = null;  // redraws "running (N s)" while a run is under way

const DIGITS = (p) => (p === null || p === undefined ? "–" : p.toFixed(12));

function draw() {
  if (!shown || !shown.figures) return;
  const f = shown.figures, maps = f.maps, goal = shown.goal;
  $("fig-first").textContent = DIGITS(f.first);
  $("fig-second").textContent = DIGITS(f.second);
  $("fig-average").textContent = DIGITS(f.average);
  $("fig-best").textContent = DIGITS(f.best_response);
  $("fig-exploit").textContent = DIGITS(f.exploitability);
  const {most, mostLoss} = drawChoiceMaps(maps, goal);
  document.body.dataset.memory = maps.memory.join(",");
  document.body.dataset.reached = maps.reached === false ? "0" : "1";
  const anyLoss = maps.loss.flat().some((x) => x > 0);
  legend($("legend"), maps.unit, [[choiceColour(0, most), "0"], [choiceColour(most, most), String(most)],
                             anyLoss ? [lossColour(mostLoss, mostLoss), `loss ${mostLoss.toPrecision(2)}`]
                                     : ["#ffffff", "no expected loss here"]]);
  $("unreached").hidden = maps.reached !== false;
  $("unreached").textContent = maps.reached === false
    ? `Play against the optimal player never reaches memories ${maps.memory.join(" and ")}: nothing here costs anything.`
    : "";
  drawWorst(f.worst);
}

// The costliest states as `hogsolve regret` prints them: loss and reach to 6 decimals, the
// expected loss in exponent form, the memories where the game has them (mine/the opponent's).
const WORST_COLUMNS = [["score", "score", "int"], ["opponent_score", "opp", "int"], ["my_memory", "mems", "mems"],
                       ["turn_total", "turn", "int"],
                       ["choice", "rolls", "int"], ["optimal", "best", "int"], ["loss", "loss", "fixed"],
                       ["reach", "reach", "fixed"], ["expected_loss", "expected", "exp"]];

function drawWorst(rows) {
  const columns = WORST_COLUMNS.filter(([key]) => rows.length && key in rows[0]);
  const head = el("tr");
  columns.forEach(([, label]) => head.appendChild(el("th", {scope: "col"}, label)));
  $("worst").querySelector("thead").replaceChildren(head);
  $("worst").querySelector("tbody").replaceChildren(...rows.map((r) => {
    const tr = el("tr");
    columns.forEach(([key, , form]) => {
      const v = r[key];
      const text = form === "mems" ? `${v}/${r.opponent_memory}` : typeof v !== "number" ? String(v)
        : form === "fixed" ? v.toFixed(6)
        : form === "exp" ? v.toExponential(3).replace(/e([+-])(\d)$/, "e$10$2") : String(v);  // as Python's %.3e
      tr.appendChild(el("td", {}, text));
    });
    return tr;
  }));
}

function chosenMemory() {
  return [Number($("memory-mine").value || 0), Number($("memory-other").value || 0)];
}

function offerMemories(sizes) {  // Feral Hogs: the maps' slice of memories, as the policy map offers
  $("memory-choice").hidden = sizes.length === 0;
  ["memory-mine", "memory-other"].forEach((id, i) => {
    const select = $(id);
    if (!sizes.length || select.options.length === sizes[i]) return;
    select.replaceChildren(...Array.from({length: sizes[i]}, (_, m) => el("option", {value: String(m)}, String(m))));
  });
}

async function followMemory() {
  if (!shown || !shown.figures) return;
  const memory = chosenMemory();
  if (!shown.figures.memories.length || memory.join(",") === shown.figures.maps.memory.join(",")) {
    draw();
    return;
  }
  try {
    shown.figures.maps = await api("GET", `/api/lab/maps?memory=${memory.join(",")}`);
    draw();
  } catch (err) { showError(err.message); }
}

function show(payload) {
  document.body.dataset.run = payload.run;
  document.body.dataset.memory = "";
  $("lab-title").textContent = `${payload.strategy} in ${payload.rules} (goal ${payload.goal})`;
  $("turn-total-box").hidden = payload.family === "hog";
  $("cs61a-note").textContent = payload.average_label ? `(${payload.average_label})` : "";  // the game's name for it
  $("cs61a-note").hidden = !payload.average_label;
  if (payload.figures) {
    shown = payload;
    offerMemories(payload.figures.memories);
    followMemory();  // the slice this page chose, not the default one
  }
  document.body.classList.toggle("stale", payload.stale);
  document.body.dataset.stale = payload.stale ? "1" : "0";
  if (payload.error) {
    showError(payload.figures ? `${payload.error} (the figures shown are from the last good run)` : payload.error);
  } else {
    clearError();
  }
  showStatus(payload);
  if (payload.figures && !payload.running) showChosenState();  // the state panel follows the new run
  document.body.dataset.ready = payload.running && !payload.figures && !payload.error ? "0" : "1";
}

function showStatus(payload) {
  clearInterval(runningTimer);
  document.body.dataset.running = payload.running ? "1" : "0";
  const last = payload.run ? `Run ${payload.run} ended at ${payload.time}` +
    (payload.seconds !== null && payload.seconds !== undefined ? ` (${payload.seconds.toFixed(1)} s)` : "") + ": " +
    (payload.error ? (payload.figures ? "failed; the figures are stale" : "failed") : "up to date") : "";
  if (!payload.running) {
    $("lab-status").textContent = last;
    return;
  }
  const began = Date.now() - 1000 * (payload.running_for || 0);
  const tick = () => {
    $("lab-status").textContent = `Run ${payload.run + 1} running (${Math.floor((Date.now() - began) / 1000)} s)` +
      (last ? `; ${last.charAt(0).toLowerCase()}${last.slice(1)}` : "");
  };
  tick();
  runningTimer = setInterval(tick, 1000);
}

async function showState(event) {
  if (!shown) return;
  const at = gridStateAt(event.currentTarget, shown.goal, event);
  if (!at) return;
  chosenState = at;
  await showChosenState();
}

async function showChosenState() {
  if (!shown || !shown.figures || !chosenState) return;
  const where = [chosenState[0], chosenState[1], ...(shown.figures.maps.memory || [])];
  if (shown.family !== "hog") where.push(Number($("turn-total").value) || 0);
  try {
    const state = await api("GET", `/api/lab/state?at=${where.join(",")}`);
    $("state-text").textContent = `State ${state.state.join(", ")}: your strategy chooses ${state.actions[state.choice]}, ` +
      `the best is ${state.actions[state.best]}. ${state.rules.join(". ")}`;
    const head = el("tr");
    head.append(el("th", {scope: "col"}, "action"), el("th", {scope: "col"}, "win probability"));
    const rows = state.actions.map((a, i) => {
      const tr = el("tr", {class: i === state.best ? "best" : i === state.choice ? "chosen" : ""});
      tr.append(el("th", {scope: "row"}, a),
                el("td", {}, state.values[i] === null ? "not allowed" : state.values[i].toFixed(6)));
      return tr;
    });
    $("state-actions").replaceChildren(head, ...rows);
  } catch (err) { showError(err.message); }
}

async function playGame(event) {
  event.preventDefault();
  try {
    const game = await api("GET", `/api/lab/game?seed=${encodeURIComponent($("seed").value || "0")}`);
    $("game-result").textContent = `${game.winner === "strategy" ? "Your strategy" : "The optimal bot"} wins, ` +
      `${game.scores[0]} to ${game.scores[1]} (seed ${game.seed})`;
    $("game-log").replaceChildren(...game.log.map((line) => el("li", {}, line)));
  } catch (err) { showError(err.message); }
}

function start() {
  ["map-strategy", "map-optimal", "map-loss"].forEach((id) => $(id).addEventListener("click", showState));
  $("game-form").addEventListener("submit", playGame);
  ["memory-mine", "memory-other"].forEach((id) => $(id).addEventListener("change", followMemory));
  liveSocket("/api/lab/ws", {hello: () => ({}), onMessage: (m) => { $("connection").textContent = "Live"; show(m); }});
}

start();
