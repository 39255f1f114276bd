// hogsolve: Sibala against the bank, with the exact odds of your roll against the banker's hand.
import {$, el, clearError, drawDie, percent} from "./common.js";
import {makeMove, resumeGame, startGame} from "./botgame.js";

let game = null, busy = false;
const KEY = "hogsolve-sibala-game";

function render() {
  $("new-game").disabled = busy;
  $("roll").disabled = !game || busy || !$("error").hidden;
  if (!game) return;
  document.body.dataset.gameId = game.id;
  document.body.dataset.rounds = game.rounds;
  document.body.dataset.phase = game.phase;
  $("balance").textContent = game.balance > 0 ? `+${game.balance}` : `${game.balance}`;
  $("rounds").textContent = game.rounds;
  $("roll").textContent = game.phase === "player" ? "You roll" : game.rounds ? "Next round: banker rolls" : "Banker rolls";
  const last = game.log.length ? game.log[game.log.length - 1] : null;
  const words = {1: "You win the round.", 0: "Push.", "-1": "The banker wins the round."};
  $("status").textContent = game.phase === "player" ? "The banker has a hand: your roll." :
    last && last.who === "result" ? words[last.result] : "Press to start a round.";
  const tray = $("tray");
  tray.replaceChildren();
  for (const e of game.log.filter((x) => x.round === game.rounds && x.who !== "result")) {
    const row = el("div", {class: `tray-row ${e.who === "you" ? "you" : "bot"}`});
    row.appendChild(el("span", {class: "who", "aria-hidden": "true"}, e.who === "you" ? "You:" : "Banker:"));
    e.dice.forEach((f) => row.appendChild(drawDie(f, 6, false)));
    row.appendChild(el("span", {}, e.hand.replace(/^[0-9 ]+: /, "")));
    tray.appendChild(row);
  }
  const odds = game.odds;
  for (const k of ["win", "push", "lose"]) {
    $(`odds-${k}`).textContent = odds ? percent(odds[k].value, 2) : "–";
    $(`odds-${k}-exact`).textContent = odds ? odds[k].exact : "";
  }
  $("edge").textContent = `${game.house_edge.exact} ≈ ${percent(game.house_edge.value, 2)}`;
  const log = $("log");
  log.replaceChildren();
  for (const e of game.log) {
    const text = e.who === "result" ? `Round ${e.round}: ${words[e.result]} Balance ${e.balance}`
      : `Round ${e.round}: ${e.who === "you" ? "you" : "the banker"} rolled ${e.hand}`;
    log.appendChild(el("li", {class: e.who === "you" ? "you" : "bot"}, text));
  }
  log.scrollTop = log.scrollHeight;
}

async function newTable(event) {
  if (event) event.preventDefault();
  busy = true;
  render();
  game = (await startGame(KEY, {rules: "sibala"})) || game;
  busy = false;
  render();
}

async function step() {
  if (!game || busy) return;
  busy = true;
  render();
  game = await makeMove(KEY, game, {action: "roll"}, "The roll failed");
  busy = false;
  render();
  if (document.activeElement === document.body) $("roll").focus();
}

async function start() {
  $("setup").addEventListener("submit", newTable);
  $("error-new-game").addEventListener("click", () => { clearError(); newTable(); });
  $("roll").addEventListener("click", step);
  document.addEventListener("keydown", (event) => {
    if (!event.ctrlKey && !event.altKey && !event.metaKey && (event.key === "r" || event.key === "R")) step();
  });
  game = await resumeGame(KEY, "sibala");
  if (!game) await newTable();
  render();
  document.body.dataset.ready = "1";
}

start();
