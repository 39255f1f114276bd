// hogsolve: two people at one Hog or roll-or-hold game, each on their own device.
// The seat token (kept in this browser) is what lets this page move for its seat.
import {$, api, el, showError, clearError, drawDie, percent} from "./common.js";
import {liveSocket} from "./socket.js";

let seat = null, state = null, socket = null, tableId = null, lastError = "";

const seatKey = (id) => `hogsolve-seat-${id}`;

function tableFromHash() {
  const m = /table=([0-9a-f]+)/.exec(location.hash);
  return m ? m[1] : null;
}

function send(message) { if (socket) socket.send(message); }

function connect() {  // the seat is kept: on every reconnection its token resumes it
  socket = liveSocket(`/api/tables/${tableId}/ws`, {
    hello: () => ({token: seat.token}),
    onMessage: (message) => {
      if (message.type === "state") { state = message; lastError = ""; render(); }
      else if (message.type === "hint") showHint(message);
      else if (message.type === "error") { lastError = message.text; $("hint-text").textContent = message.text; }
    },
    onClose: (event) => {
      if (event.code !== 4403 && event.code !== 4404 && event.code !== 1008) return true;
      showError(event.code === 4404 ? "This table has expired. Start a new one." : "This browser has no seat at that table.");
      if (localStorage.getItem("hogsolve-last-table") === tableId) localStorage.removeItem("hogsolve-last-table");
      return false;
    },
  });
}

function names(s) { return s === seat.seat ? "You" : "Friend"; }

function render() {
  if (!state) return;
  const me = seat.seat, other = 1 - me;
  document.body.dataset.seat = me;
  document.body.dataset.moves = (state.turns || state.log).length;
  $("score-you").textContent = state.scores[me];
  $("score-bot").textContent = state.scores[other];
  $("you-box").classList.toggle("active", state.to_move === me);
  $("bot-box").classList.toggle("active", state.to_move === other);
  const waiting = !state.seated[1];
  $("share-box").hidden = !waiting || me !== 0;
  let status = waiting ? "Waiting for your friend to join" : state.to_move === me ? "Your turn" : "Your friend's turn";
  if (state.winner !== null) status = state.winner === me ? "You won!" : "Your friend won";
  $("status").textContent = status;
  $("connection").textContent = waiting ? "" : state.online[other] ? "Your friend is here." : "Your friend is offline.";
  const mine = !waiting && state.to_move === me;
  const hog = state.family === "hog";
  $("hog-moves").hidden = !hog;
  $("pig-moves").hidden = hog;
  if (hog) {
    document.querySelectorAll(".dice-button").forEach((b) => {
      const n = Number(b.dataset.dice);
      b.hidden = n < state.min_dice || n > state.max_dice;
      b.disabled = !mine;
    });
  } else {
    $("turn-total").textContent = state.turn_total;
    $("roll").disabled = !mine;
    $("hold").disabled = !mine || state.turn_total === 0;
  }
  const log = $("log"), tray = $("tray");
  log.replaceChildren();
  tray.replaceChildren();
  const entries = hog ? state.turns : state.log;
  entries.forEach((e, i) => {
    const who = names(hog ? e.seat : e.player);
    let text;
    if (hog) text = `${who} rolled ${e.num_dice === 0 ? "no dice" : e.outcomes.join(" ")}: +${e.points + (e.feral_bonus || 0)}` +
      ((e.events || []).length ? ` (${e.events.map((x) => x.text).join("; ")})` : "");
    else text = e.action === "hold" ? `${who} held, banking ${e.banked}` :
      `${who} rolled ${e.faces.join(" ")}: ${e.outcome === "add" ? `+${e.amount}` : e.outcome}`;
    log.appendChild(el("li", {class: who === "You" ? "you" : "bot"}, text));
    if (i >= entries.length - 3) {
      const row = el("div", {class: `tray-row ${who === "You" ? "you" : "bot"}`});
      row.appendChild(el("span", {class: "who", "aria-hidden": "true"}, `${who}:`));
      const faces = hog ? e.outcomes : (e.faces || []);
      faces.forEach((f) => row.appendChild(drawDie(f, hog ? e.sides : 6, hog ? f === 1 : e.outcome !== "add")));
      row.appendChild(el("span", {class: "sr-only"}, text));
      tray.appendChild(row);
    }
  });
  $("game-over").hidden = state.winner === null;
  if (state.winner !== null) $("game-over-text").textContent = status;
  if ($("hint-toggle").checked && mine && state.winner === null) send({hint: true});
  else $("hint-text").textContent = lastError;
}

function showHint(hint) {
  if (hint.best === null || hint.best === undefined) {
    $("hint-text").textContent = hint.preparing ? `Preparing the bot… ${hint.seconds} s` : "";
    if (hint.preparing) setTimeout(() => send({hint: true}), 800);
    return;
  }
  $("hint-text").textContent = typeof hint.best === "number"
    ? (hint.proven === false ? `Best by the unproven table: roll ${hint.best} dice ` +
       `(win probability ${percent(hint.values[hint.best], 2)}, not proven)`
      : `Optimal: roll ${hint.best} dice (win probability ${percent(hint.values[hint.best], 2)})`)
    : `Optimal: ${hint.best} (roll ${percent(hint.roll, 2)}, hold ${hint.hold === null ? "not allowed" : percent(hint.hold, 2)})`;
}

function shareLink(join, lan) {  // a link the friend's device can open
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  if (local && lan && lan.length) return `${location.protocol}//${lan[0]}${join}`;  // lan: host:port
  return `${location.origin}${join}`;
}

async function newTable(event) {
  if (event) event.preventDefault();
  try {
    const created = await api("POST", "/api/tables", {rules: $("rules").value});
    localStorage.setItem(seatKey(created.table), JSON.stringify(created));
    $("share").textContent = shareLink(created.join, created.lan);
    localStorage.setItem("hogsolve-last-table", created.table);
    location.hash = `table=${created.table}`;
    clearError();
  } catch (err) { showError(`Could not create a table: ${err.message}`); }
}

async function openTable() {
  const id = tableFromHash();
  if (!id || id === tableId) return;
  if (socket) socket.close();
  tableId = id;
  state = null;
  const saved = localStorage.getItem(seatKey(id));
  if (saved) seat = JSON.parse(saved);
  else {
    try {
      seat = await api("POST", `/api/tables/${id}/join`, {});
      localStorage.setItem(seatKey(id), JSON.stringify(seat));
    } catch (err) { showError(err.message); return; }
  }
  if (seat.join) $("share").textContent = shareLink(seat.join, seat.lan);
  localStorage.setItem("hogsolve-last-table", id);
  connect();
}

async function start() {
  let info;
  try { info = await api("GET", "/api/rulesets"); } catch (err) { showError(err.message); return; }
  for (const r of info.rulesets.filter((r) => r.family !== "sibala")) {
    $("rules").appendChild(el("option", {value: r.name, title: r.description}, r.family === "hog" ? `Hog ${r.name}` : r.name));
  }
  $("rules").value = info.default;
  for (let n = 0; n <= 10; n++) {
    const b = el("button", {type: "button", class: "dice-button", "data-dice": n, "aria-label": `roll ${n} dice`}, String(n));
    b.addEventListener("click", () => { send({move: n}); });
    $("dice-buttons").appendChild(b);
  }
  $("roll").addEventListener("click", () => send({move: "roll"}));
  $("hold").addEventListener("click", () => send({move: "hold"}));
  $("hint-toggle").addEventListener("change", render);
  $("setup").addEventListener("submit", newTable);
  $("error-new-game").addEventListener("click", () => { clearError(); newTable(); });
  window.addEventListener("hashchange", openTable);
  const last = localStorage.getItem("hogsolve-last-table");
  if (!tableFromHash() && last && localStorage.getItem(seatKey(last))) {
    location.replace(`${location.pathname}${location.search}#table=${last}`);  // /friend alone resumes the table
  }
  await openTable();
  document.body.dataset.ready = "1";
}

start();
