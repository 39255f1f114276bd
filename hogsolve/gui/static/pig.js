// hogsolve: the roll-or-hold games against the optimal bot, and the hold thresholds of its policy.
import {$, DICE_COLOURS, api, patiently, el, showError, clearError, showProgress, drawDie, drawScoreboard, percent,
        drawGrid, gridStateAt, legend} from "./common.js";
import {makeMove, newGame as startNewGame, resumeGame} from "./botgame.js";

let game = null, policy = null, shown = 0;
const page = {busy: false, render: () => render()};  // busy: a request is on its way
const KEY = "hogsolve-pig-game";

function entryWords(e) {
  const who = e.who === "you" ? "You" : "Bot";
  if (e.action === "hold") return `${who} held, banking ${e.banked}`;
  // e.said is the game's own words for the roll: "rolled 3 5", or "flipped heads" for Piglet's coin
  if (e.outcome === "bust") return `${who} ${e.said}: bust, the turn total is lost`;
  if (e.outcome === "wipe") return `${who} ${e.said}: double ones, the banked score is lost too`;
  return `${who} ${e.said}: +${e.amount}`;
}

function render() {
  const scores = drawScoreboard(game, policy ? policy.goal : 100);
  $("turn-total").textContent = game ? game.turn_total : 0;
  let status = "Start a new game";
  if (game && game.winner) status = game.winner === "you" ? "You won!" : "The bot won";
  else if (game) status = game.to_move === "you" ? "Your turn" : "Bot's turn";
  $("status").textContent = status;
  $("new-game").disabled = page.busy;
  const mine = !!game && game.to_move === "you" && !page.busy && $("error").hidden;
  $("roll").disabled = !mine;
  $("hold").disabled = !mine || game.turn_total === 0;
  if (game) { document.body.dataset.gameId = game.id; document.body.dataset.moves = game.log.length; }
  const log = $("log");
  log.replaceChildren();
  if (game) game.log.forEach((e) => log.appendChild(el("li", {class: e.who}, entryWords(e))));
  log.scrollTop = log.scrollHeight;
  const tray = $("tray");
  if (!game) tray.replaceChildren();
  else {
    const fresh = game.log.slice(shown);
    if (fresh.length && fresh[0].who === "you" && shown && game.log[shown - 1].who !== "you") tray.replaceChildren();
    for (const e of fresh) {
      const row = el("div", {class: `tray-row ${e.who}`});
      row.appendChild(el("span", {class: "who", "aria-hidden": "true"}, e.who === "you" ? "You:" : "Bot:"));
      if (e.action === "roll") {
        const sides = game.coin ? 2 : 6;
        e.faces.forEach((f) => row.appendChild(drawDie(f, sides, e.outcome !== "add")));
        row.appendChild(el("span", {class: "gain", "aria-hidden": "true"}, e.outcome === "add" ? `+${e.amount}` : e.outcome));
      } else {
        row.appendChild(el("span", {class: "gain", "aria-hidden": "true"}, `holds: +${e.banked}`));
      }
      row.appendChild(el("span", {class: "sr-only"}, entryWords(e)));
      tray.appendChild(row);
    }
    while (tray.children.length > 14) tray.removeChild(tray.firstChild);
    shown = game.log.length;
  }
  $("game-over").hidden = !(game && game.winner);
  if (game && game.winner) {
    $("game-over-text").textContent = `${game.winner === "you" ? "You win" : "The bot wins"} ` +
      `${Math.max(scores.you, scores.bot)} to ${Math.min(scores.you, scores.bot)}`;
  }
  const history = game ? game.win_probability : [];
  $("trend-now").textContent = history.length ? percent(history[history.length - 1]) : "";
  drawPolicy();
  refreshHint();
}

async function newGame(event) {
  if (event) event.preventDefault();
  await startNewGame(page, KEY, {rules: $("rules").value, first: $("first").value}, async (created) => {
    game = created;
    shown = 0;
    $("tray").replaceChildren();
    await loadPolicy(game.rules);
  });
}

async function act(action) {
  if (!game || page.busy || game.to_move !== "you" || !$("error").hidden) return;
  if (action === "hold" && game.turn_total === 0) return;
  page.busy = true;
  render();
  game = await makeMove(KEY, game, {action}, "That failed");
  page.busy = false;
  render();
  const target = $(action);
  const focusable = target.disabled ? $("roll") : target;
  if (document.activeElement === document.body || document.activeElement === target) focusable.focus();
}

async function refreshHint() {
  const panel = $("hint-panel");
  panel.hidden = !$("hint-toggle").checked;
  for (const id of ["roll", "hold"]) $(id).classList.remove("best");
  if (panel.hidden || !game || game.to_move !== "you") {
    $("hint-text").textContent = game && game.winner ? "The game is over." : "Hints appear on your turn.";
    return;
  }
  const id = game.id, moves = game.log.length;
  let hint;
  try { hint = await api("GET", `/api/games/${id}/hint`); } catch (err) { showError(`No hint: ${err.message}`); return; }
  if (!game || game.id !== id || game.log.length !== moves || hint.best === null) return;
  $(hint.best).classList.add("best");
  const hold = hint.hold === null ? "holding is not allowed before the first roll" :
    `if you hold ${percent(hint.hold, 2)}`;
  $("hint-text").textContent = `Optimal: ${hint.best} ★ (win probability if you roll ${percent(hint.roll, 2)}; ${hold})`;
}

async function loadPolicy(name) {
  if (policy && policy.rules === name) return;
  const answer = await patiently("GET", `/api/policy/${encodeURIComponent(name)}`, undefined, showProgress);
  if ($("rules").value === name || (game && game.rules === name)) policy = answer;
}

function thresholdColour(t) {
  const top = 40;  // thresholds above 40 share the lightest colour (the legend says so)
  return DICE_COLOURS[Math.round(Math.min(t, top) / top * (DICE_COLOURS.length - 1))];
}

function drawPolicy() {
  const canvas = $("policy-canvas");
  if (!policy) return;
  const marks = [];
  if (game && !game.winner && policy.rules === game.rules) {
    const s = game.to_move === "you" ? [game.scores.you, game.scores.bot] : [game.scores.bot, game.scores.you];
    marks.push([s, "#111", 7]);
  }
  drawGrid(canvas, policy.goal, (s, o) => thresholdColour(policy.hold_threshold[s][o]), marks);
  canvas.dataset.rules = policy.rules;
  $("map-title").textContent = policy.rules;
  legend($("legend"), "hold at:", [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40].map(
    (t) => [thresholdColour(t), t === 40 ? "40+" : `${t}`]));
}

function hover(event) {
  if (!policy) return;
  const at = gridStateAt($("policy-canvas"), policy.goal, event);
  const tip = $("tooltip");
  if (!at) { tip.hidden = true; return; }
  const [s, o, x, y] = at;
  tip.hidden = false;
  tip.textContent = `banked ${s} vs ${o}: hold at ${policy.hold_threshold[s][o]}, ` +
    `win ${percent(policy.win_probability[s][o], 2)} at the turn's start`;
  tip.style.left = `${Math.min(x + 12, $("policy-wrap").clientWidth - tip.offsetWidth - 2)}px`;
  tip.style.top = `${Math.min(y + 12, $("policy-wrap").clientHeight - tip.offsetHeight - 2)}px`;
}

async function start() {
  let info;
  try { info = await api("GET", "/api/rulesets"); } catch (err) { showError(err.message); return; }
  const games = info.rulesets.filter((r) => r.family === "roll-or-hold");
  for (const g of games) $("rules").appendChild(el("option", {value: g.name, title: g.description}, g.name));
  const rule = () => { const g = games.find((x) => x.name === $("rules").value); $("rule-text").textContent = g ? g.description : ""; };
  $("rules").value = localStorage.getItem("hogsolve-pig-rules") || "pig";
  if (!$("rules").value) $("rules").value = "pig";
  rule();
  $("hint-toggle").checked = localStorage.getItem("hogsolve-hint") === "1";
  $("setup").addEventListener("submit", newGame);
  $("play-again").addEventListener("click", () => newGame());
  $("error-new-game").addEventListener("click", () => { clearError(); newGame(); });
  $("roll").addEventListener("click", () => act("roll"));
  $("hold").addEventListener("click", () => act("hold"));
  $("hint-toggle").addEventListener("change", () => {
    localStorage.setItem("hogsolve-hint", $("hint-toggle").checked ? "1" : "0");
    refreshHint();
  });
  $("rules").addEventListener("change", async () => {
    localStorage.setItem("hogsolve-pig-rules", $("rules").value);
    rule();
    if (!game || game.winner) { try { await loadPolicy($("rules").value); } catch (err) { showError(err.message); } render(); }
  });
  $("policy-canvas").addEventListener("mousemove", hover);
  $("policy-canvas").addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.altKey || event.metaKey || event.target.tagName === "SELECT") return;
    if (event.key === "r" || event.key === "R") act("roll");
    else if (event.key === "h" || event.key === "H") act("hold");
  });
  game = await resumeGame(KEY, "roll-or-hold");
  if (game) {
    shown = game.log.length;
    $("rules").value = game.rules;
  }
  try { await loadPolicy(game ? game.rules : $("rules").value); } catch (err) { showError(err.message); }
  render();
  document.body.dataset.ready = "1";
}

start();
